import type { BannerTcfTexts, TcfSettings, TcfVendor, TcfVendorList } from '../../banner-config.ts';
import { plainText } from '../html-text.ts';
import { askedVendors, consentPurposes, copyChoice, legitimateInterestPurposes, type TcfChoice } from './choice.ts';
import { element, filledIn, listOf } from './dom.ts';
import style from './layers.css';
import { firstLayerItems } from './stacks.ts';
import { type LayerWords, storageDisclosure, vendorDetails, vocabularyOf } from './vendor-details.ts';

/**
 * The TCF layers of the banner, drawn into cookieconsent's modals: the first layer's TCF notice
 * in the consent modal (`.cm`), and in the settings (`.pm`) the purposes, special features and
 * every vendor with its switches and details. The switches edit a copy of the choice; each change
 * is handed to `onChange`. Storing the choice and the TC string is the CMP's (index.ts).
 */

export type TcfLayersOptions = {
  settings: TcfSettings;
  list: TcfVendorList;
  /** The locale name the banner speaks (`de_DE`): picks the list's translation; its language picks the vendors' addresses. */
  locale: string;
  /** `config.texts[locale].tcf`. */
  texts: BannerTcfTexts;
  choice: TcfChoice;
  onChange(choice: TcfChoice): void;
  /** Opens the settings (cookieconsent's `showPreferences`): the first layer's way to the vendors. */
  openSecondLayer(): void;
};

export type TcfLayers = {
  /** Adds the TCF notice to the consent modal (once). */
  addToFirstLayer(modal: HTMLElement): void;
  /** Adds the purposes, special features and vendors to the settings (once). */
  addToSecondLayer(modal: HTMLElement): void;
  /** Shows a choice made elsewhere ("accept all", "reject all", a stored one) on the switches. */
  setChoice(choice: TcfChoice): void;
  choice(): TcfChoice;
};

/** The choice's sets a switch can stand for; `data-tcf` on the checkbox names one, `data-id` the entry. */
type ChoiceKey = 'purposesConsent' | 'purposesLegitimateInterest' | 'vendorsConsent' | 'vendorsLegitimateInterest' | 'specialFeatures';

const STYLE_ID = 'ccm-tcf-style';

export function mountTcfLayers(options: TcfLayersOptions): TcfLayers {
  const { settings, list } = options;
  let current = copyChoice(options.choice);
  const words = Object.fromEntries(Object.entries(options.texts).map(([key, value]) => [key, plainText(value)])) as LayerWords;
  const vocabulary = vocabularyOf(list, options.locale);
  const language = options.locale.slice(0, 2).toLowerCase();
  const vendors = askedVendors(settings, list);
  const consented = consentPurposes(settings, list);
  const legitimate = legitimateInterestPurposes(settings, list);
  const specialFeatures = settings.specialFeatures.filter((id) => list.specialFeatures[String(id)] !== undefined);
  const switches: HTMLInputElement[] = [];
  let partnersHeading: HTMLElement | null = null;

  if (!document.getElementById(STYLE_ID)) document.head.append(element('style', { id: STYLE_ID }, style));

  const toggle = (key: ChoiceKey, id: number, label: string, accessibleName: string) => {
    const input = element('input', { type: 'checkbox', 'data-tcf': key, 'data-id': String(id), 'aria-label': accessibleName });
    input.checked = current[key].has(id);
    input.addEventListener('change', () => {
      if (input.checked) current[key].add(id);
      else current[key].delete(id);
      options.onChange(copyChoice(current));
    });
    switches.push(input);
    return element('label', { class: 'ccm-tcf-switch' }, input, element('span', {}, label));
  };

  /** An entry of the list (purpose, feature…) that unfolds to its description and examples, with its switches beside it. */
  const listEntry = (kind: 'purposes' | 'specialPurposes' | 'features' | 'specialFeatures', id: number, switchesOf: Node[] = []) => {
    const entry = vocabulary.entry(kind, id);
    const examples = entry?.illustrations?.filter((text) => text.trim() !== '') ?? [];
    return element(
      'li',
      { class: 'ccm-tcf-entry' },
      element(
        'details',
        {},
        element('summary', {}, vocabulary.name(kind, id)),
        element('p', {}, entry?.description ?? ''),
        examples.length ? element('strong', {}, words.examples) : null,
        listOf(examples),
      ),
      switchesOf.length ? element('div', { class: 'ccm-tcf-switches' }, ...switchesOf) : null,
    );
  };

  const section = (heading: string, ...content: (Node | null)[]) => {
    const title = element('h3', { class: 'ccm-tcf-heading', tabindex: '-1' }, heading);
    return { title, section: element('section', { class: 'pm__section ccm-tcf-section' }, title, ...content) };
  };

  const vendorEntry = (vendor: TcfVendor) => {
    const asksConsent = vendor.purposes.length > 0 || vendor.flexiblePurposes.length > 0 || vendor.specialFeatures.length > 0;
    const details = element('details', {}, element('summary', {}, vendor.name));
    // Hundreds of vendors: a vendor's details are drawn when first unfolded.
    details.addEventListener('toggle', () => {
      if (!details.open || details.childElementCount > 1) return;
      const shown = vendorDetails(vendor, words, vocabulary, language, current);
      details.append(shown);
      if (vendor.deviceStorageDisclosureUrl)
        void storageDisclosure(vendor.deviceStorageDisclosureUrl, words, vocabulary).then((list) => list && shown.querySelector('.ccm-tcf-disclosure')?.after(list));
    });
    const switchesOf = [
      asksConsent ? toggle('vendorsConsent', vendor.id, words.consent, `${vendor.name}: ${words.consent}`) : null,
      vendor.legIntPurposes.length > 0 ? toggle('vendorsLegitimateInterest', vendor.id, words.legitimateInterest, `${vendor.name}: ${words.legitimateInterest}`) : null,
    ].filter((node) => node !== null);
    return element('li', { class: 'ccm-tcf-entry', 'data-vendor': String(vendor.id) }, details, element('div', { class: 'ccm-tcf-switches' }, ...switchesOf));
  };

  const union = (pick: (vendor: TcfVendor) => number[]) => [...new Set(vendors.flatMap(pick))].sort((a, b) => a - b);

  return {
    addToFirstLayer(modal) {
      if (modal.querySelector('.ccm-tcf-first')) return;
      const items = firstLayerItems(list.stacks ?? {}, consented, new Set(specialFeatures));
      const stackOf = (id: number) => vocabulary.entry('stacks', id);
      const open = element('button', { type: 'button', class: 'ccm-tcf-open' }, filledIn(words.showPartners, { count: vendors.length }));
      open.addEventListener('click', () => {
        options.openSecondLayer();
        // Once cookieconsent has shown the settings and moved the focus into them (after its
        // animation): on to the partners. Where its focus has not come within 3 s (a slow device;
        // a browser that does not focus a page in the background), the partners get it anyway.
        const toPartners = (tries: number) =>
          setTimeout(() => {
            if (!partnersHeading?.isConnected) return tries > 0 && toPartners(tries - 1);
            if (!document.activeElement?.closest('.pm') && tries > 0) return toPartners(tries - 1);
            partnersHeading.scrollIntoView({ block: 'start' });
            partnersHeading.focus();
          }, 50);
        toPartners(60);
      });
      const notice = element(
        'div',
        { class: 'ccm-tcf ccm-tcf-first' },
        element('p', {}, filledIn(words.firstLayer, { count: vendors.length })),
        items.stacks.length ? element('p', {}, words.stacksIntro) : null,
        listOf(items.stacks.map((stack) => element('span', {}, element('strong', {}, stackOf(stack.id)?.name ?? stack.name), ` – ${stackOf(stack.id)?.description ?? stack.description}`))),
        listOf(items.purposes.map((id) => vocabulary.name('purposes', id))),
        items.specialFeatures.length ? element('p', {}, element('strong', {}, words.specialFeatures)) : null,
        listOf(items.specialFeatures.map((id) => vocabulary.name('specialFeatures', id))),
        legitimate.size ? element('p', {}, filledIn(words.legitimateInterestNote, { purposes: [...legitimate].map((id) => vocabulary.name('purposes', id)).join(', ') })) : null,
        element('p', {}, words.withdrawNote),
        element('p', {}, open),
      );
      const description = modal.querySelector('.cm__desc');
      if (description) description.after(notice);
      else modal.append(notice);
    },

    addToSecondLayer(modal) {
      const body = modal.querySelector('.pm__body') ?? modal;
      if (body.querySelector('.ccm-tcf-second')) return;
      const purposeIds = [...new Set([...consented, ...legitimate])].sort((a, b) => a - b);
      const purposes = section(
        words.purposes,
        element(
          'ul',
          { class: 'ccm-tcf-entries' },
          ...purposeIds.map((id) => {
            const name = vocabulary.name('purposes', id);
            return listEntry('purposes', id, [
              consented.has(id) ? toggle('purposesConsent', id, words.consent, `${name}: ${words.consent}`) : null,
              legitimate.has(id) ? toggle('purposesLegitimateInterest', id, words.legitimateInterest, `${name}: ${words.legitimateInterest}`) : null,
            ].filter((node) => node !== null));
          }),
        ),
      );
      const features = specialFeatures.length
        ? section(
            words.specialFeatures,
            element('p', {}, words.specialFeaturesGlobal),
            element(
              'ul',
              { class: 'ccm-tcf-entries' },
              ...specialFeatures.map((id) => listEntry('specialFeatures', id, [toggle('specialFeatures', id, words.consent, `${vocabulary.name('specialFeatures', id)}: ${words.consent}`)])),
            ),
          )
        : null;
      const informational = (heading: string, kind: 'specialPurposes' | 'features', ids: number[]) =>
        ids.length ? section(heading, element('ul', { class: 'ccm-tcf-entries' }, ...ids.map((id) => listEntry(kind, id)))) : null;
      const partners = section(
        `${words.partners} (${vendors.length})`,
        element('p', {}, words.vendorIntro),
        element('p', {}, filledIn(words.partnerCount, { count: vendors.length })),
        element('ul', { class: 'ccm-tcf-entries' }, ...vendors.map(vendorEntry)),
      );
      partnersHeading = partners.title;
      body.append(
        element(
          'div',
          { class: 'ccm-tcf ccm-tcf-second' },
          purposes.section,
          features?.section ?? null,
          informational(words.specialPurposes, 'specialPurposes', union((vendor) => vendor.specialPurposes))?.section ?? null,
          informational(words.features, 'features', union((vendor) => vendor.features))?.section ?? null,
          partners.section,
        ),
      );
    },

    setChoice(choice) {
      current = copyChoice(choice);
      for (const input of switches) input.checked = current[input.dataset.tcf as ChoiceKey].has(Number(input.dataset.id));
    },

    choice: () => copyChoice(current),
  };
}
