/**
 * Holding back elements written as HTML text (`document.write`, `innerHTML`): the parser must
 * never see them as they were written. A held element keeps its address under another
 * attribute (`src` → `data-src` for an iframe, `data-ccm-src` for an image; a script becomes
 * `type="text/plain"`) and gains the attributes `attributes` says.
 */
export type MarkupTag = 'script' | 'iframe' | 'img';

export type MarkupHold = {
  /** Attributes added to the element. */
  attributes: Record<string, string>;
  /** An image's or iframe's `src` is renamed to this. */
  moveSrcTo?: string;
};

export type MarkupDecision = (tag: MarkupTag, src: string | null, text: string, type: string | null) => MarkupHold | null;

const ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>|<(iframe|img)\b([^>]*)>/gi;
const attributeOf = (name: string) => new RegExp(`(^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i');

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** An attribute's value as written (HTML entities of `&amp;` kind decoded the simple way), or null when absent. */
function valueOf(attributes: string, name: string): string | null {
  const match = attributeOf(name).exec(attributes);
  if (!match) return null;
  const raw = match[3] ?? match[4] ?? match[5] ?? '';
  return raw.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

const extra = (attributes: Record<string, string>) =>
  Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');

/** `html` with every element `decide` holds rewritten; unchanged when it holds none. */
export function holdMarkup(html: string, decide: MarkupDecision): string {
  if (!/<(script|iframe|img)\b/i.test(html)) return html;
  return html.replace(ELEMENT, (whole, scriptAttributes: string | undefined, text: string | undefined, tag: string | undefined, attributes: string | undefined) => {
    if (scriptAttributes !== undefined) {
      const hold = decide('script', valueOf(scriptAttributes, 'src'), text ?? '', valueOf(scriptAttributes, 'type'));
      if (!hold) return whole;
      const type = valueOf(scriptAttributes, 'type');
      const kept = scriptAttributes.replace(attributeOf('type'), '$1');
      const typeNote: Record<string, string> = type ? { 'data-type': type } : {};
      return `<script${kept} type="text/plain"${extra({ ...typeNote, ...hold.attributes })}>${text ?? ''}</script>`;
    }
    const name = tag!.toLowerCase() as MarkupTag;
    const hold = decide(name, valueOf(attributes!, 'src'), '', null);
    if (!hold) return whole;
    const moved = hold.moveSrcTo ? attributes!.replace(attributeOf('src'), (_match, space: string, value: string) => `${space}${hold.moveSrcTo}=${value}`) : attributes!;
    const selfClosing = /\/\s*$/.test(moved);
    return `<${tag}${moved.replace(/\/\s*$/, '')}${extra(hold.attributes)}${selfClosing ? ' /' : ''}>`;
  });
}
