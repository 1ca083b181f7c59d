/** Password strength (spec section 5), with no dependencies: the server and the islands share it. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The three criteria the reset form shows, plus the length ceiling. */
export function passwordCriteria(password: string) {
  return {
    cases: /[a-z]/.test(password) && /[A-Z]/.test(password),
    length: password.length >= PASSWORD_MIN,
    numbersOrSymbols: /[^A-Za-z]/.test(password),
    notTooLong: password.length <= PASSWORD_MAX,
  };
}

export function isStrongPassword(password: string): boolean {
  const c = passwordCriteria(password);
  return c.cases && c.length && c.numbersOrSymbols && c.notTooLong;
}
