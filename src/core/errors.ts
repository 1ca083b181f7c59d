/**
 * The one error catalogue (spec section 8). Each code carries its HTTP status and the locale key of
 * its message; the error handler renders it as an HTML page, an htmx fragment, form field errors or
 * JSON / GraphQL `extensions.code`.
 */

export type ErrorSpec = { status: number; key: string };

/** Client error codes (spec section 8, "Client error codes"). */
export const clientErrors = {
  100: { status: 400, key: 'errors.client.invalidUrl' },
  110: { status: 400, key: 'errors.client.invalidPhone' },
  120: { status: 400, key: 'errors.client.passwordMismatch' },
  121: { status: 400, key: 'errors.client.passwordStrength' },
  130: { status: 400, key: 'errors.client.invalidEmail' },
  140: { status: 400, key: 'errors.client.invalidDate' },
  // Ours: a text field holds a control character (U+0000 and the like) or half a character.
  150: { status: 400, key: 'errors.client.invalidCharacters' },
  900: { status: 400, key: 'errors.client.missingInput' },
  999: { status: 400, key: 'errors.client.invalidError' },
} as const satisfies Record<number, ErrorSpec>;

export type ClientErrorCode = keyof typeof clientErrors;

/** Server codes (spec section 8, "Server codes"), plus the platform's own. */
export const serverErrors = {
  'Invalid.Email': { status: 400, key: 'errors.server.invalidEmail' },
  'Unrecognized.Email': { status: 404, key: 'errors.server.unrecognizedEmail' },
  'NotAuthorized.Password': { status: 401, key: 'errors.server.passwordIncorrect' },
  'BadRequest.InvalidCode': { status: 400, key: 'errors.server.invalidCode' },
  'BadRequest.NoAdmins': { status: 400, key: 'errors.server.noAdmins' },
  'BadRequest.MaxAttempts': { status: 429, key: 'errors.server.lockout' },
  'BadRequest.MaxSendAttempts': { status: 429, key: 'errors.server.lockout' },
  'BadRequest.TooManyRequests': { status: 429, key: 'errors.server.lockout' },
  'BadRequest.UnhandledError': { status: 400, key: 'errors.server.lockout' },
  'BadRequest.Validation': { status: 400, key: 'errors.server.validation' },
  'BadRequest.Csrf': { status: 403, key: 'errors.server.csrf' },
  'BadRequest.InvalidLink': { status: 400, key: 'auth.reset.invalidLink' },
  'NotAuthenticated': { status: 401, key: 'errors.server.notAuthenticated' },
  'Forbidden': { status: 403, key: 'errors.server.forbidden' },
  'NotFound': { status: 404, key: 'errors.notFound.text' },
  'RateLimited': { status: 429, key: 'errors.server.rateLimited' },
  'Busy.PasswordChecks': { status: 429, key: 'errors.server.busy' },
  'Busy.Uploads': { status: 429, key: 'errors.server.busy' },
  'ServiceUnavailable.Database': { status: 503, key: 'errors.server.unavailable' },
  'UnknownError': { status: 500, key: 'errors.generic.title' },
} as const satisfies Record<string, ErrorSpec>;

/**
 * The areas' own codes. Each area declares its catalogue in `src/features/<area>/errors.ts` (its
 * `Area.errors`, registered from src/features/areas.ts at start) and adds its codes to this interface:
 *
 *     declare module '#src/core/errors.ts' { interface AreaErrorCodes extends Codes<typeof forumErrors> {} }
 *
 * so `new AppError('Forum.Locked')` type-checks without this file naming any area.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface AreaErrorCodes {}
/** An area's catalogue as the keys of AreaErrorCodes. */
export type Codes<C extends Record<string, ErrorSpec>> = { [K in keyof C]: true };

export type ServerErrorCode = keyof typeof serverErrors | (keyof AreaErrorCodes & string);
export type ErrorCode = ServerErrorCode | ClientErrorCode;

const areaErrors = new Map<string, ErrorSpec>();

/** Adds an area's catalogue (src/features/areas.ts does, once per area). A code may be declared once. */
export function registerErrorCodes(catalogue: Record<string, ErrorSpec>): void {
  for (const [code, spec] of Object.entries(catalogue)) {
    if (code in serverErrors || (areaErrors.has(code) && areaErrors.get(code) !== spec)) throw new Error(`error code ${code} is declared twice`);
    areaErrors.set(code, spec);
  }
}

/** Every server code, the platform's and the registered areas'. */
export function allServerErrors(): Record<string, ErrorSpec> {
  return { ...serverErrors, ...Object.fromEntries(areaErrors) };
}

/** Lockout codes lead to the lockout screen (spec section 8). */
export const LOCKOUT_CODES: readonly ServerErrorCode[] = [
  'BadRequest.MaxAttempts',
  'BadRequest.MaxSendAttempts',
  'BadRequest.TooManyRequests',
  'BadRequest.UnhandledError',
];

export function errorSpec(code: ErrorCode): ErrorSpec {
  if (typeof code === 'number') return clientErrors[code];
  const spec = (serverErrors as Record<string, ErrorSpec>)[code] ?? areaErrors.get(code);
  if (!spec) throw new Error(`unknown error code ${code}: is its area's errors.ts registered in src/features/areas.ts?`);
  return spec;
}

export type FieldErrors = Record<string, { code: ErrorCode; key: string; values?: Record<string, unknown> }>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly key: string;
  readonly values: Record<string, unknown> | undefined;
  readonly fields: FieldErrors | undefined;

  /**
   * `key` replaces the catalogue's message where the specification words one code differently in one
   * place (a wrong current password in settings is NotAuthorized.Password, said 'Current password incorrect').
   * `status` replaces the catalogue's status in the same way: the spec reads a 401 as "signed out", so a
   * signed-in member's wrong current password answers 400 with the sign-in code (decision 0043).
   */
  constructor(code: ErrorCode, options: { values?: Record<string, unknown>; fields?: FieldErrors; cause?: unknown; key?: string; status?: number } = {}) {
    const spec = errorSpec(code);
    const key = options.key ?? spec.key;
    super(`${String(code)} (${key})`, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? spec.status;
    this.key = key;
    this.values = options.values;
    this.fields = options.fields;
  }

  /** The code as clients see it: numbers for client codes, dotted names for server codes. */
  get publicCode(): string {
    return String(this.code);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/**
 * The error for a form's refused fields: when every field is refused for one catalogue client code
 * (100 URL, 110 phone, 130 email, 140 date, 900 missing input...), the answer carries that code
 * (REST `code`, GraphQL `extensions.code`); fields refused for different reasons carry the area's
 * validation code, each field still naming its own.
 */
export function fieldsError(fields: FieldErrors, fallback: ErrorCode): AppError {
  const codes = new Set(Object.values(fields).map((f) => f.code));
  const [only] = codes;
  return new AppError(codes.size === 1 && typeof only === 'number' ? only : fallback, { fields });
}

/**
 * The safety net behind the text fields (core/fields.ts): should a text with U+0000 ever reach the
 * database, PostgreSQL refuses it (22021 character_not_in_repertoire, 22P05 untranslatable_character).
 * That is the request's fault: catalogue code 150, a 400, never a 500.
 */
export function asClientError(err: unknown): AppError | null {
  if (isAppError(err)) return err;
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return code === '22021' || code === '22P05' ? new AppError(150, { cause: err }) : null;
}

export const notFound = () => new AppError('NotFound');
export const forbidden = () => new AppError('Forbidden');
export const notAuthenticated = () => new AppError('NotAuthenticated');
