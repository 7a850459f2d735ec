import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { SETTINGS_ICON_TARGETS, type WIDGET_BUTTONS, WIDGET_POSITIONS } from './theme.contract.ts';
import { timestamps } from '../../db/timestamps.ts';
import { DomainEntity } from '../domains/domain.entity.ts';

const flag = () => p.boolean();
const colour = () => p.text();

export const ThemeEntity = defineEntity({
  name: 'Theme',
  tableName: 'theme',
  uniques: [
    {
      name: 'theme_one_default_per_domain',
      expression: 'create unique index "theme_one_default_per_domain" on "theme" ("domain_id") where "is_default"',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    domain: () => p.manyToOne(DomainEntity).deleteRule('cascade').index(),
    name: p.text(),
    /** `default` in payloads; at most one per domain (a partial unique index backs this up). */
    isDefault: p.boolean(),
    widgetBlocking: flag(),
    widgetCloseButton: flag(),
    showPurposesInMainWindow: flag(),
    settingsAcceptAllButton: flag(),
    settingsCheckAndUncheckAllButtons: flag(),
    settingsFooter: flag(),
    complyWithDoNotTrack: flag(),
    enableOnlyInEu: flag(),
    manipulationPrevention: flag(),
    logoEnabled: flag(),
    settingsIconEnabled: flag(),
    whitelabel: flag(),
    widgetButtons: p.json<(typeof WIDGET_BUTTONS)[number][]>(),
    widgetPosition: p.enum(WIDGET_POSITIONS),
    widgetSwitchType: p.text(),
    settingsIconTarget: p.enum(SETTINGS_ICON_TARGETS),
    logoImage: p.text().nullable(),
    settingsIconImage: p.text().nullable(),
    customCss: p.text(),
    customCssForIframeBlocker: p.text(),
    primaryButtonBackgroundColor: colour(),
    primaryButtonForegroundColor: colour(),
    primaryButtonBorderColor: colour(),
    declineButtonBackgroundColor: colour(),
    declineButtonForegroundColor: colour(),
    declineButtonBorderColor: colour(),
    buttonBackgroundColor: colour(),
    buttonForegroundColor: colour(),
    buttonBorderColor: colour(),
    windowBackgroundColor: colour(),
    windowForegroundColor: colour(),
    windowLinkColor: colour(),
    windowBorderColor: colour(),
    iframeBlockerBackgroundColor: colour(),
    iframeBlockerForegroundColor: colour(),
    iframeBlockerButtonBackgroundColor: colour(),
    iframeBlockerButtonForegroundColor: colour(),
    ...timestamps(),
  },
});

export type ThemeRow = InferEntity<typeof ThemeEntity>;
export type ThemeRecord = Omit<ThemeRow, 'domain' | 'createdAt' | 'updatedAt'>;
