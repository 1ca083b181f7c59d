import type { Area } from '#src/features/area.ts';
import devRoutes from './routes.tsx';

/** Development-only pages (the routes register nothing in production). */
export const area: Area = { name: 'dev', routes: [devRoutes] };
