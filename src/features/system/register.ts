import type { Area } from '#src/features/area.ts';
import systemRoutes from './routes.ts';

/** Health checks, the legacy redirects of spec section 2, and /v2. */
export const area: Area = { name: 'system', routes: [systemRoutes] };
