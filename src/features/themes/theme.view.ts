import { viewOf } from '../../kernel/contract/field-view.ts';
import { type Theme, themeFields } from './theme.contract.ts';
import type { ThemeRecord } from './theme.entity.ts';

const themeView = viewOf(themeFields);

/** A stored theme → its payload. */
export const toTheme = (row: ThemeRecord): Theme => themeView(row);
