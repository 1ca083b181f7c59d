/**
 * The payments area's public face: the only module other areas, views and the app import from
 * payments. Registration (routes, GraphQL, jobs, seed) is in ./register.ts, which only
 * src/features/areas.ts imports.
 */
export { offersAmplification } from './amplify.ts';
export type { CardFormLogos } from './cards.ts';
export type { AddressDraft, StepName, StepView } from './onboarding/types.ts';
export { buildCardProcessor } from './processor/index.ts';
export type { BrowserSettings, CardProcessor } from './processor/types.ts';
export { DUNNING_DAYS } from './renewals/dunning.ts';
export type { AuthLogRow, CardView } from './saved-cards/view-model.ts';
export { seedPayments } from './seed.ts';
export type { AmplifyPageModel, StatementRow } from './view-models.ts';
