import type { Area } from '#src/features/area.ts';
import { seedAds } from './seed.ts';

/** The community's ads: no routes of their own (the page shell and the client data show them); the demo's ads. */
export const area: Area = {
  name: 'ads',
  routes: [],
  seed: async (trx, demo) => {
    await seedAds(trx, Object.values(demo.byCode));
  },
};
