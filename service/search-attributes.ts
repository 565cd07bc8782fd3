// Registers the service's typed search attributes on a Temporal server that does not have them yet.
import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SearchAttributeType } from '@temporalio/common';
import { contractSearchAttributes } from '../workflows/search-attributes';

const indexedValueTypes: Record<SearchAttributeType, temporal.api.enums.v1.IndexedValueType> = {
  [SearchAttributeType.TEXT]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  [SearchAttributeType.KEYWORD]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  [SearchAttributeType.INT]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  [SearchAttributeType.DOUBLE]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  [SearchAttributeType.BOOL]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  [SearchAttributeType.DATETIME]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  [SearchAttributeType.KEYWORD_LIST]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

const ALREADY_EXISTS = 6;

/**
 * Adds each attribute on its own, treating "already exists" as done: the Java time-skipping server implements
 * AddSearchAttributes but not ListSearchAttributes, so this cannot ask first.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  for (const key of contractSearchAttributes) {
    try {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: { [key.name]: indexedValueTypes[key.type] },
      });
    } catch (err) {
      if ((err as { code?: number }).code !== ALREADY_EXISTS) throw err;
    }
  }
}
