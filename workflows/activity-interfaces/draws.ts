// The draw secret's activity as the workflow calls it (activities/draw-activities.ts). The answer is an
// object so the payload codec seals it (bare strings stay readable).

export interface DrawActivities {
  newDrawSecret(): Promise<{ secret: string }>;
}
