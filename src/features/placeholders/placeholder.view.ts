import { viewOf } from '../../kernel/contract/field-view.ts';
import { type Placeholder, placeholderFields } from './placeholder.contract.ts';
import type { PlaceholderRecord } from './placeholder.entity.ts';

const placeholderView = viewOf(placeholderFields);

/** A stored placeholder → its payload. */
export const toPlaceholder = (row: PlaceholderRecord): Placeholder => placeholderView(row);
