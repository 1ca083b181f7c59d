import type { Area } from '#src/features/area.ts';
import contactRoutes from './routes.tsx';

/** Contact us (issue 27): the page of the community's concierge contact, /contact (decision 0055). */
export const area: Area = {
  name: 'contact',
  routes: [contactRoutes],
};
