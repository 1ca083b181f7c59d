/**
 * The expert panels' public face: the only module other areas and views import from this area.
 * (Its registration, routes and GraphQL are in register.ts, imported only by src/features/areas.ts.)
 */
export { submitAnswer } from './answers.ts';
export { epDeps } from './deps.ts';
export { publicRoundups, type PublicRoundup } from './roundups/read.ts';
export { firstOpenQuestion, joinPanels, listJoinablePanels, onboardingPanelState } from './join.ts';
export type { EpAnswerStatus, JoinablePanel, MemberQuestionRow, MemberQuestionView, MemberTab } from './types.ts';
export type { AnswerDetail, AnswerFilters, AnswerRow, BatchBoardRow, BatchDetail, BatchFilters, PanelDetail, PanelRow, QuestionBoardRow, QuestionFilters, QuestionRow } from './admin/admin-types.ts';
export type { InvitationFields, InviteFormState, InviteQuestionView } from './invite/types.ts';
export { featurableRoundups } from './roundups/featurable.ts';
export type { PublishedRoundup, RoundupAnswerView, RoundupDetail, RoundupQuery, RoundupQuestionChoice, RoundupRow } from './roundups/types.ts';
export { acceptedAnswersForLibrary, publishedRoundupsForLibrary } from './library.ts';
// Answers and roundups by day, for the staff's insights (issue 29).
export { expertAnswersByMember, expertFiguresByDay } from './figures.ts';
