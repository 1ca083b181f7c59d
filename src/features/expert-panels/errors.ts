import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes (spec section 8 and ours): registered from src/features/areas.ts. */
export const expertPanelErrors = {
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

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof expertPanelErrors> {}
}
