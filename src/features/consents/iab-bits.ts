/**
 * A cursor over the bits of a base64url segment, as the IAB strings (TC string, GPP) encode
 * theirs: six bits a character, most significant first. Used to look at a string's shape before
 * handing it to an IAB library (see tc-string.ts and gpp-string.ts for why).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export class BitReader {
  readonly #bits: string;
  #at = 0;

  /** The bits of `segment`; null when it has a character outside base64url. */
  static of(segment: string): BitReader | null {
    let bits = '';
    for (const character of segment) {
      const value = ALPHABET.indexOf(character);
      if (value < 0) return null;
      bits += value.toString(2).padStart(6, '0');
    }
    return new BitReader(bits);
  }

  private constructor(bits: string) {
    this.#bits = bits;
  }

  /** Bits not read yet. */
  get left(): number {
    return this.#bits.length - this.#at;
  }

  /** The next `width` bits as an unsigned integer; null past the end. */
  int(width: number): number | null {
    if (this.left < width) return null;
    const value = Number.parseInt(this.#bits.slice(this.#at, this.#at + width), 2);
    this.#at += width;
    return value;
  }

  skip(width: number): boolean {
    if (this.left < width) return false;
    this.#at += width;
    return true;
  }

  /**
   * The next Fibonacci-coded integer (GPP: weights 1, 2, 3, 5, …, ended by a second `1` in a
   * row); null past the end or when it takes more than `maxBits` bits (a value past what the
   * reader expects).
   */
  fibonacci(maxBits: number): number | null {
    const weights = [1, 2];
    let value = 0;
    let previous = '0';
    for (let index = 0; index < maxBits; index++) {
      if (this.left < 1) return null;
      const bit = this.#bits[this.#at++]!;
      if (bit === '1' && previous === '1') return value;
      if (index >= weights.length) weights.push(weights[index - 1]! + weights[index - 2]!);
      if (bit === '1') value += weights[index]!;
      previous = bit;
    }
    return null;
  }
}
