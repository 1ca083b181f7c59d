import type { Area } from '#src/features/area.ts';
import homeRoutes from './routes.tsx';

/** The home page: the welcome, or what is happening in the community. */
export const area: Area = { name: 'home', routes: [homeRoutes] };
