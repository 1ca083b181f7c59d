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
  'Articles.AgreementRequired': { status: 403, key: 'articles.errors.agreementRequired' },
  'Articles.Blackout': { status: 409, key: 'articles.errors.blackout' },
  'Articles.Invalid': { status: 400, key: 'articles.errors.invalid' },
  'Articles.NotEditable': { status: 409, key: 'articles.errors.notEditable' },
  'Articles.TransitionRefused': { status: 409, key: 'articles.errors.transitionRefused' },
  'Articles.OtherInFlight': { status: 409, key: 'articles.errors.otherInFlight' },
  'Articles.ApplicationRequired': { status: 403, key: 'articles.errors.applicationRequired' },
  'Articles.ChangedSinceOpened': { status: 409, key: 'articles.errors.changedSinceOpened' },
  'Introductions.Invalid': { status: 400, key: 'introductions.errors.invalid' },
  'Introductions.Self': { status: 400, key: 'introductions.errors.self' },
  'Introductions.OpenRequest': { status: 409, key: 'introductions.errors.openRequest' },
  'Introductions.DailyCap': { status: 429, key: 'introductions.errors.dailyCap' },
  'Introductions.AlreadyReviewed': { status: 409, key: 'introductions.errors.alreadyReviewed' },
  'Introductions.MemberInactive': { status: 409, key: 'introductions.errors.memberInactive' },
  'Notifications.UnknownPreference': { status: 400, key: 'preferences.errors.unknownPreference' },
  'Notifications.InvalidUnsubscribeLink': { status: 400, key: 'preferences.errors.invalidUnsubscribeLink' },
  'Push.InvalidToken': { status: 400, key: 'push.errors.invalidToken' },
  'Push.InvalidSubscription': { status: 400, key: 'push.errors.invalidSubscription' },
  'Notifications.BadRequest': { status: 400, key: 'notifications.errors.badRequest' },
  // Payments (issue 13). A card the processor refused is a 400: pay-now shows it inline as the card error.
  'Payments.KeyReused': { status: 409, key: 'payments.errors.keyReused' },
  'Payments.NotConfigured': { status: 404, key: 'payments.errors.notConfigured' },
  'Payments.Declined': { status: 400, key: 'payments.errors.declined' },
  'Payments.Cvv': { status: 400, key: 'payments.errors.cvv' },
  'Payments.Expired': { status: 400, key: 'payments.errors.expired' },
  'Payments.InvalidToken': { status: 400, key: 'payments.errors.invalidToken' },
  'Payments.Authentication': { status: 400, key: 'payments.errors.authentication' },
  'Payments.Processing': { status: 502, key: 'payments.errors.processing' },
  'Payments.NotAccepted': { status: 400, key: 'payments.errors.notAccepted' },
  'Payments.DefaultCardRemoval': { status: 409, key: 'payments.errors.defaultCannotBeRemoved' },
  'Payments.InvalidMembership': { status: 400, key: 'payments.errors.invalidMembership' },
  'Payments.NoBalanceDue': { status: 409, key: 'payments.errors.noBalanceDue' },
  'Billing.StatementsUnavailable': { status: 503, key: 'billing.statements.error' },
  'Amplify.NotPublished': { status: 409, key: 'amplify.errors.notPublished' },
  'Amplify.UnknownPackage': { status: 400, key: 'amplify.errors.unknownPackage' },
  'SavedCards.VerificationFailed': { status: 400, key: 'savedCards.errors.verification' },
  'SavedCards.AddFailed': { status: 400, key: 'savedCards.errors.add' },
  'SavedCards.DeleteFailed': { status: 502, key: 'savedCards.errors.delete' },
  'SavedCards.ChangeDefaultFailed': { status: 409, key: 'savedCards.errors.changeDefault' },
  'Onboarding.Disabled': { status: 409, key: 'onboarding.errors.disabled' },
  'Onboarding.PaymentFirst': { status: 409, key: 'onboarding.errors.paymentFirst' },
  'Onboarding.CredentialsExist': { status: 409, key: 'onboarding.errors.credentialsExist' },
  'Onboarding.UsernameTaken': { status: 409, key: 'onboarding.password.usernameTaken' },
  'Onboarding.StepUnavailable': { status: 409, key: 'onboarding.errors.stepUnavailable' },
  // The forum (issue 14). 'Post not found' covers a missing, removed or other community's post.
  'Forum.PostNotFound': { status: 404, key: 'forum.errors.postNotFound' },
  'Forum.ReplyNotFound': { status: 404, key: 'forum.errors.replyNotFound' },
  'Forum.Invalid': { status: 400, key: 'forum.errors.invalid' },
  'Forum.Locked': { status: 409, key: 'forum.errors.locked' },
  'Forum.NotYours': { status: 403, key: 'forum.errors.notYours' },
  'Forum.UseRemove': { status: 403, key: 'forum.errors.useRemove' },
  'Forum.EditWindowClosed': { status: 409, key: 'forum.errors.editWindowClosed' },
  'Forum.AlreadyModerated': { status: 409, key: 'forum.errors.alreadyModerated' },
  'Forum.Busy': { status: 409, key: 'forum.errors.busy' },
  'Forum.AlreadyReported': { status: 409, key: 'forum.errors.alreadyReported' },
  'Forum.NotModerator': { status: 403, key: 'forum.errors.notModerator' },
  'Forum.LikeFailed': { status: 409, key: 'forum.errors.likeFailed' },
  'Forum.TopicNotFound': { status: 404, key: 'forum.errors.topicNotFound' },
  // Expert panels (issue 15). Spec section 8: expert answer too long, required, generic; invite errors.
  'ExpertPanels.QuestionNotFound': { status: 404, key: 'expertPanels.errors.questionNotFound' },
  'ExpertPanels.Closed': { status: 409, key: 'expertPanels.errors.closed' },
  'ExpertPanels.InReview': { status: 409, key: 'expertPanels.errors.inReview' },
  'ExpertPanels.AnswerRequired': { status: 400, key: 'expertPanels.errors.answerRequired' },
  'ExpertPanels.AnswerTooLong': { status: 400, key: 'expertPanels.errors.answerTooLong' },
  'ExpertPanels.AnswerTooShort': { status: 400, key: 'expertPanels.errors.answerTooShort' },
  'ExpertPanels.AnswerFailed': { status: 500, key: 'expertPanels.errors.answerFailed' },
  'ExpertPanels.Invalid': { status: 400, key: 'expertPanels.errors.invalid' },
  'ExpertPanels.Busy': { status: 409, key: 'expertPanels.errors.busy' },
  'ExpertPanels.NotFound': { status: 404, key: 'expertPanels.errors.notFound' },
  'ExpertPanels.MoveNotAllowed': { status: 409, key: 'expertPanels.errors.moveNotAllowed' },
  'ExpertPanels.InviteMissingIds': { status: 400, key: 'expertPanels.errors.inviteMissingIds' },
  'ExpertPanels.InviteNoneUnanswered': { status: 404, key: 'expertPanels.errors.inviteNoneUnanswered' },
  'ExpertPanels.InviteLoadFailed': { status: 400, key: 'expertPanels.errors.inviteLoadFailed' },
  'ExpertPanels.BatchSent': { status: 409, key: 'expertPanelsAdmin.errors.batchSent' },
  'ExpertPanels.NotInReview': { status: 409, key: 'expertPanelsAdmin.errors.notInReview' },
  'ExpertPanels.RoundupPublished': { status: 409, key: 'expertPanelsRoundups.errors.published' },
  'ExpertPanels.RoundupEmpty': { status: 409, key: 'expertPanelsRoundups.errors.empty' },
} as const satisfies Record<string, ErrorSpec>;

export type ServerErrorCode = keyof typeof serverErrors;
export type ErrorCode = ServerErrorCode | ClientErrorCode;

/** Lockout codes lead to the lockout screen (spec section 8). */
export const LOCKOUT_CODES: readonly ServerErrorCode[] = [
  'BadRequest.MaxAttempts',
  'BadRequest.MaxSendAttempts',
  'BadRequest.TooManyRequests',
  'BadRequest.UnhandledError',
];

export function errorSpec(code: ErrorCode): ErrorSpec {
  if (typeof code === 'number') return clientErrors[code];
  return serverErrors[code];
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
