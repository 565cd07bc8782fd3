// The saved-history file format: the History protobuf as protobufjs JSON (History.toJSON: camelCase
// fields, enums by name, int64 as strings, bytes in base64), read back with History.fromObject.
// Not @temporalio/common's historyToJSON: in this install it loads a second protobufjs (8.x) that
// cannot serialize the 7.x messages of @temporalio/proto ("type must be a Type").
import { temporal } from '@temporalio/proto';

export type History = temporal.api.history.v1.IHistory;

export function historyToFile(history: History): string {
  return JSON.stringify(temporal.api.history.v1.History.fromObject(history).toJSON(), null, 1) + '\n';
}

export function historyFromFile(text: string): temporal.api.history.v1.History {
  return temporal.api.history.v1.History.fromObject(JSON.parse(text) as Record<string, unknown>);
}
