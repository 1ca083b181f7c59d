import NotificationBell from './NotificationBell.tsx';

/** Server-side map of island names to components; each also has an esbuild entry of the same name. */
export const islandComponents = {
  NotificationBell,
};

export type IslandName = keyof typeof islandComponents;
export type IslandProps<N extends IslandName> = Parameters<(typeof islandComponents)[N]>[0];
