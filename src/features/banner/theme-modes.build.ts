import type { Theme } from '../themes/theme.contract.ts';
import type { ThemeModes } from './banner-config.ts';

/**
 * The theme settings that add parts to the banner or guard it, for the runtime
 * (runtime/theme-modes.ts). A domain without a theme gets the banner as before: none of the
 * modes, but the settings' footer (the contract's default).
 */
export function themeModesOf(theme: Theme | null): ThemeModes {
  return {
    purposesInFirstLayer: theme?.showPurposesInMainWindow ?? false,
    checkboxes: /^\s*check/i.test(theme?.widgetSwitchType ?? ''),
    settingsFooter: theme?.settingsFooter ?? true,
    checkAllButtons: theme?.settingsCheckAndUncheckAllButtons ?? false,
    manipulationPrevention: theme?.manipulationPrevention ?? false,
  };
}

/** The purposes of the first layer as switches (an input drawn as a track with a knob), and the settings button made a text link below the buttons. */
const FIRST_LAYER_CSS = `#cc-main .ccm-purposes{display:flex;flex-wrap:wrap;gap:.6rem 1.4rem;padding:0 1.3rem 1rem;font-size:.85em}
#cc-main .ccm-purpose{display:inline-flex;align-items:center;gap:.5em;cursor:pointer}
#cc-main .ccm-purpose input{display:inline-block;position:relative;flex:none;width:2.4em;height:1.3em;border-radius:1em;background:var(--cc-toggle-off-bg);transition:background .2s}
#cc-main .ccm-purpose input::before{content:"";position:absolute;top:.15em;left:.15em;width:1em;height:1em;border-radius:50%;background:var(--cc-toggle-off-knob-bg);transition:transform .2s}
#cc-main .ccm-purpose input:checked{background:var(--cc-toggle-on-bg)}
#cc-main .ccm-purpose input:checked::before{transform:translateX(1.1em);background:var(--cc-toggle-on-knob-bg)}
#cc-main .ccm-purpose input:disabled{background:var(--cc-toggle-readonly-bg);cursor:not-allowed}
#cc-main .ccm-purpose input:focus-visible{outline:2px solid var(--cc-btn-primary-bg);outline-offset:2px}
#cc-main .ccm-settings-link{padding:0 1.3rem .9rem}
#cc-main .ccm-settings-link .cm__btn{min-height:0;padding:.2em 0;background:none;border:0;color:var(--cc-link-color);text-decoration:underline;font-weight:600}`;

/** Checkboxes instead of switches: the first layer's inputs, and cookieconsent's toggles drawn as a box with a tick. */
const CHECKBOX_CSS = `#cc-main .ccm-purpose input{width:1.25em;height:1.25em;border-radius:.25em;background:var(--cc-bg);box-shadow:inset 0 0 0 2px var(--cc-toggle-off-bg)}
#cc-main .ccm-purpose input::before{display:none;transform:none}
#cc-main .ccm-purpose input:checked::before,#cc-main .ccm-purpose input:disabled::before{display:block;top:.15em;left:.4em;width:.3em;height:.6em;border-radius:0;background:none;border:solid var(--cc-toggle-on-knob-bg);border-width:0 .15em .15em 0;transform:rotate(45deg)}
#cc-main .ccm-purpose input:checked{box-shadow:none;background:var(--cc-toggle-on-bg)}
#cc-main .section__toggle,#cc-main .section__toggle-wrapper,#cc-main .toggle__icon,#cc-main .toggle__label,#cc-main .toggle-service .section__toggle,#cc-main .toggle-service .toggle__icon,#cc-main .toggle-service .toggle__label{width:22px;height:22px;border-radius:4px}
#cc-main .toggle__icon{background:var(--cc-bg);box-shadow:inset 0 0 0 2px var(--cc-toggle-off-bg)}
#cc-main .toggle__icon-circle,#cc-main .toggle__icon-off{display:none}
#cc-main .toggle__icon-on,#cc-main.cc--rtl .toggle__icon-on{transform:none}
#cc-main .toggle__icon-on svg{stroke:var(--cc-toggle-on-knob-bg);transform:scale(.8)}`;

const CHECK_ALL_CSS = `#cc-main .ccm-check-all{display:flex;flex-wrap:wrap;gap:.5em;margin-bottom:1em}
#cc-main .ccm-check-all .pm__btn{flex:1 1 auto;margin:0}`;

/** The CSS the modes need (shipped with the domain's configuration, not in the runtime bundle). */
export function themeModesCss(modes: ThemeModes): string {
  return [modes.purposesInFirstLayer && FIRST_LAYER_CSS, modes.checkboxes && CHECKBOX_CSS, modes.checkAllButtons && CHECK_ALL_CSS].filter(Boolean).join('\n');
}
