/** The formatting helpers live in the view kit (views/kit/format.ts, their one home); re-exported here for services. */
export { formatCurrency, formatDate, formatFee, formatRelative, relativeTimeLabels } from '#views/kit/format.ts';
