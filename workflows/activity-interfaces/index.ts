// What the workflows call of each activity: the interfaces the activities implement (activities/), so
// workflow code depends on these definitions and never on an activity's module.
export type * from './draws';
export type * from './ledger';
export type * from './operator';
export type * from './outcomes';
export type * from './panels';
export type * from './records';
export type * from './scoring';
export type * from './webhooks';
