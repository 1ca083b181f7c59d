import type { Area } from '#src/features/area.ts';
import adminRoutes from './routes.tsx';

/** The admin area's front page. */
export const area: Area = { name: 'admin', routes: [adminRoutes] };
