// The shadow workflow's activities: a round trip through the task queue and nothing else.
export const shadowActivities = {
  async noop(): Promise<void> {},
};
export type ShadowActivities = typeof shadowActivities;
