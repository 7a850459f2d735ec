import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractAddress, type PostalAddress } from '../../src/scanner/address.ts';

/** Postal addresses outside Germany: US, UK, French and Austrian imprints, as text and as JSON-LD. */

const none: PostalAddress = { company: null, street: null, zipCode: null, city: null };
const fromText = (text: string) => extractAddress({ text, jsonLd: [] });
const address = (company: string | null, street: string | null, zipCode: string | null, city: string | null): PostalAddress => ({
  company,
  street,
  zipCode,
  city,
});

describe('US addresses (the town keeps its state, "Mountain View, CA", as the line reads without the ZIP code)', () => {
  it.each<[string, string, PostalAddress]>([
    [
      'street, then "Town, ST 12345" on the next line, among contact and EIN lines',
      `Legal notice
Acme Inc.
1600 Amphitheatre Parkway
Mountain View, CA 94043
Phone: (650) 253-0000
Email: legal@acme.example
EIN: 12-3456789`,
      address('Acme Inc.', '1600 Amphitheatre Parkway', '94043', 'Mountain View, CA'),
    ],
    [
      'one comma-separated line with a suite and the country',
      `Contact
Acme Widgets LLC
123 Main St., Suite 400, Springfield, IL 62704, USA`,
      address('Acme Widgets LLC', '123 Main St., Suite 400', '62704', 'Springfield, IL'),
    ],
    [
      'a ZIP+4 code and the suite on a line of its own',
      `Imprint
Example Corp.
350 Fifth Avenue
Suite 5100
New York, NY 10118-0110
United States`,
      address('Example Corp.', '350 Fifth Avenue, Suite 5100', '10118-0110', 'New York, NY'),
    ],
    [
      'a four-digit house number without a street word, which is no Austrian postcode',
      'Sample Co.\n1000 Broadway\nNashville, TN 37203',
      address('Sample Co.', '1000 Broadway', '37203', 'Nashville, TN'),
    ],
    [
      'a state written out and no comma before it',
      'Prairie Software Inc.\n42 Lincoln Avenue\nSpringfield Illinois 62704',
      address('Prairie Software Inc.', '42 Lincoln Avenue', '62704', 'Springfield, Illinois'),
    ],
    [
      'state and ZIP code as separate comma pieces, on one line with the company',
      'Gateway Arch LLC, 11 N 4th St, St. Louis, MO, 63102',
      address('Gateway Arch LLC', '11 N 4th St', '63102', 'St. Louis, MO'),
    ],
    [
      'a P.O. box in place of the street',
      'Northwest Example Inc.\nP.O. Box 1234\nSeattle, WA 98111',
      address('Northwest Example Inc.', 'P.O. Box 1234', '98111', 'Seattle, WA'),
    ],
  ])('reads %s', (_, text, expected) => {
    expect(fromText(text)).toEqual(expected);
  });
});

describe('UK addresses (postcode after the town)', () => {
  it.each<[string, string, PostalAddress]>([
    [
      'town and postcode on one line, among Companies House and VAT lines',
      `Legal notice
Example Ltd
10 Downing Street
London SW1A 2AA
Registered in England and Wales
Companies House 01234567
VAT Reg. No. GB 123 4567 89`,
      address('Example Ltd', '10 Downing Street', 'SW1A 2AA', 'London'),
    ],
    [
      'one line with a flat before the street and the country after the postcode',
      'Example Ltd\nFlat 2, 14 High Street, Manchester M1 1AE, United Kingdom',
      address('Example Ltd', 'Flat 2, 14 High Street', 'M1 1AE', 'Manchester'),
    ],
    [
      'a unit line, and the postcode on a line of its own',
      `Sample Digital Limited
Unit 5
25 City Road
London
EC1V 9HX
Company No. 09876543`,
      address('Sample Digital Limited', 'Unit 5, 25 City Road', 'EC1V 9HX', 'London'),
    ],
    [
      'a "Registered office" heading between the company and its address',
      `Acme Widgets plc
Registered office
1 Example Way
Birmingham B33 8TH`,
      address('Acme Widgets plc', '1 Example Way', 'B33 8TH', 'Birmingham'),
    ],
    [
      'a labelled one-line address and a postcode written without its space',
      'Registered office: 7 Quayside, Newcastle upon Tyne NE13DX',
      address(null, '7 Quayside', 'NE1 3DX', 'Newcastle upon Tyne'),
    ],
  ])('reads %s', (_, text, expected) => {
    expect(fromText(text)).toEqual(expected);
  });
});

describe('French addresses', () => {
  it.each<[string, string, PostalAddress]>([
    [
      'street and "75004 Paris" on separate lines, among SIRET, RCS and TVA lines',
      `Mentions légales
Exemple SAS
12 rue de Rivoli
75004 Paris
SIRET 123 456 789 00012
RCS Paris B 123 456 789
TVA intracommunautaire : FR12123456789
Code APE : 6201Z`,
      address('Exemple SAS', '12 rue de Rivoli', '75004', 'Paris'),
    ],
    [
      'street, postcode and town on one line without a comma between them',
      'Exemple SAS\n5, avenue des Champs-Élysées 75008 Paris',
      address('Exemple SAS', '5, avenue des Champs-Élysées', '75008', 'Paris'),
    ],
    [
      'a post-office box (BP) in place of the street and a Cedex town, split by a dash',
      'Exemple Lyon SARL\nBP 123 – 69003 Lyon Cedex 03',
      address('Exemple Lyon SARL', 'BP 123', '69003', 'Lyon Cedex 03'),
    ],
    [
      'a CS line between the street and the postcode, which gives way to the street',
      'Exemple Banque SA\n10 avenue de France\nCS 70001\n75013 Paris',
      address('Exemple Banque SA', '10 avenue de France', '75013', 'Paris'),
    ],
    [
      'a building before the street, "bis" after the number, a hyphenated town',
      'Atelier Exemple EURL, Bât. B, 3 bis place des Prêcheurs, 13100 Aix-en-Provence, France',
      address('Atelier Exemple EURL', 'Bât. B, 3 bis place des Prêcheurs', '13100', 'Aix-en-Provence'),
    ],
  ])('reads %s', (_, text, expected) => {
    expect(fromText(text)).toEqual(expected);
  });
});

describe('Austrian addresses (four-digit postcodes)', () => {
  it.each<[string, string, PostalAddress]>([
    [
      'street and "1010 Wien", among FN, UID and GISA lines',
      `Impressum
Beispiel GmbH
Stephansplatz 1
1010 Wien
Firmenbuchgericht: Handelsgericht Wien
FN 123456a
UID: ATU12345678
GISA-Zahl: 12345678`,
      address('Beispiel GmbH', 'Stephansplatz 1', '1010', 'Wien'),
    ],
    [
      'an "A-" prefix before the postcode',
      'Beispiel GmbH\nGraben 19\nA-1010 Wien',
      address('Beispiel GmbH', 'Graben 19', '1010', 'Wien'),
    ],
    [
      'staircase and door in the house number, town after a comma',
      'Muster e.U.\nHauptstraße 5/3/12, 8010 Graz',
      address('Muster e.U.', 'Hauptstraße 5/3/12', '8010', 'Graz'),
    ],
    [
      'an "AT-" prefix and staircase and door ("Stiege", "Top") as pieces of their own',
      'Alpen Handel OG, Landstraßer Hauptstraße 5, Stiege 2, Top 12, AT-1030 Wien, Österreich',
      address('Alpen Handel OG', 'Landstraßer Hauptstraße 5, Stiege 2, Top 12', '1030', 'Wien'),
    ],
    [
      'a town starting with "St." and an "A " prefix',
      'Beispiel KG\nRathausplatz 1\nA 3100 St. Pölten\nZVR-Zahl 123456789',
      address('Beispiel KG', 'Rathausplatz 1', '3100', 'St. Pölten'),
    ],
  ])('reads %s', (_, text, expected) => {
    expect(fromText(text)).toEqual(expected);
  });
});

describe('imprint noise', () => {
  const registerLines = [
    'FN 123456a', 'Companies House 01234567', 'SIRET 123 456 789 00012', 'EIN 12-3456789', 'EIN: 12-3456789',
    'Company No. 01234567', 'HRB 123456', 'UID: ATU12345678', 'ATU12345678', 'VAT: GB123456789', 'GB123456789',
    'TVA : FR12123456789', 'RCS Lyon 123 456 789', 'ZVR-Zahl 123456789', 'Phone: (650) 253-0000', 'Tel. +43 1 234 56 78',
    'IBAN: AT61 1904 3002 3457 3201', 'E-Mail: office@beispiel.example',
  ];

  it.each(registerLines)('never reads "%s" as a street or postcode', (line) => {
    expect(fromText(`Impressum\nBeispiel GmbH\n${line}`)).toEqual(none);
  });

  it.each(registerLines)('keeps "%s" out of an address it stands next to', (line) => {
    expect(fromText(`Beispiel GmbH\n${line}\nStephansplatz 1\n${line}\n1010 Wien\n${line}`)).toEqual(
      address('Beispiel GmbH', 'Stephansplatz 1', '1010', 'Wien'),
    );
  });
});

describe('extractAddress from JSON-LD PostalAddress outside Germany', () => {
  type Page = Parameters<typeof extractAddress>[0];
  const page = (name: string, postal: Record<string, unknown>): Page => ({
    text: '',
    jsonLd: [{ '@context': 'https://schema.org', '@type': 'Organization', name, address: { '@type': 'PostalAddress', ...postal } }],
  });

  it.each<[string, Page, PostalAddress]>([
    [
      'a US address, the region joining the town',
      page('Acme Inc.', {
        streetAddress: '1600 Amphitheatre Parkway',
        addressLocality: 'Mountain View',
        addressRegion: 'CA',
        postalCode: '94043',
        addressCountry: 'US',
      }),
      address('Acme Inc.', '1600 Amphitheatre Parkway', '94043', 'Mountain View, CA'),
    ],
    [
      'a US address with a numeric ZIP code that lost its leading zero and the country as a Country node',
      page('Harbor Example LLC', {
        streetAddress: '1 Main Street',
        addressLocality: 'Boston',
        addressRegion: 'MA',
        postalCode: 2108,
        addressCountry: { '@type': 'Country', name: 'United States' },
      }),
      address('Harbor Example LLC', '1 Main Street', '02108', 'Boston, MA'),
    ],
    [
      'a US address without a country, known by its state and ZIP code',
      page('Lone Star Example Inc.', {
        streetAddress: '500 Congress Ave',
        addressLocality: 'Austin',
        addressRegion: 'TX',
        postalCode: '78701',
      }),
      address('Lone Star Example Inc.', '500 Congress Ave', '78701', 'Austin, TX'),
    ],
    [
      'a UK address, its two street lines joined and the postcode spaced',
      page('Example Ltd', {
        streetAddress: 'Flat 2\n14 High Street',
        addressLocality: 'Manchester',
        addressRegion: 'Greater Manchester',
        postalCode: 'm11ae',
        addressCountry: 'GB',
      }),
      address('Example Ltd', 'Flat 2, 14 High Street', 'M1 1AE', 'Manchester'),
    ],
    [
      'a French address, the region left out of the town',
      page('Exemple SAS', {
        streetAddress: '12 rue de Rivoli',
        addressLocality: 'Paris',
        addressRegion: 'Île-de-France',
        postalCode: '75004',
        addressCountry: 'FR',
      }),
      address('Exemple SAS', '12 rue de Rivoli', '75004', 'Paris'),
    ],
    [
      'an Austrian address with a prefixed postcode',
      page('Beispiel GmbH', {
        streetAddress: 'Hauptstraße 5/3/12',
        addressLocality: 'Graz',
        postalCode: 'A-8010',
        addressCountry: 'AT',
      }),
      address('Beispiel GmbH', 'Hauptstraße 5/3/12', '8010', 'Graz'),
    ],
    [
      'an Austrian address with a numeric postcode, left at four digits',
      page('Beispiel GmbH', { streetAddress: 'Stephansplatz 1', addressLocality: 'Wien', postalCode: 1010, addressCountry: 'AT' }),
      address('Beispiel GmbH', 'Stephansplatz 1', '1010', 'Wien'),
    ],
    [
      'a US address given as one string',
      {
        text: '',
        jsonLd: [{ '@type': 'Organization', name: 'Acme Inc.', address: '1600 Amphitheatre Parkway, Mountain View, CA 94043, USA' }],
      },
      address('Acme Inc.', '1600 Amphitheatre Parkway', '94043', 'Mountain View, CA'),
    ],
  ])('reads %s', (_, jsonLdPage, expected) => {
    expect(extractAddress(jsonLdPage)).toEqual(expected);
  });
});

// ── properties: any address of these shapes, in any of the usual layouts, among any noise ──

/**
 * One generated address. `town` is the place as the layouts write it: "Springfield, IL" before the ZIP
 * code, "Manchester" before the postcode, "A-1010 Wien" with its postcode; `city` is what should come back.
 */
type Sample = {
  company: string;
  street: string;
  unit: string | null;
  zip: string;
  town: string;
  country: string;
  city: string;
};
/** How a sample is written: `[lines]`, where the caller puts headings and noise around them. */
type Layout = (s: Sample) => string[];

const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));
const letters = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'ABCDEFGHJKLMNOPRSTUWYZ'), { minLength: min, maxLength: max }).map((l) => l.join(''));
const streetWithUnit = (s: Sample, unitFirst: boolean) =>
  s.unit === null ? s.street : unitFirst ? `${s.unit}, ${s.street}` : `${s.street}, ${s.unit}`;

const usSample = fc
  .record({
    company: fc.constantFrom('Acme Inc.', 'Example LLC', 'Sample Corp.', 'Widget Co.', 'Northwind Incorporated'),
    number: fc.integer({ min: 1, max: 99999 }),
    name: fc.constantFrom('Main St.', 'Amphitheatre Parkway', 'Fifth Avenue', 'Market Street', 'Ocean Blvd', 'Elm Drive', 'Broadway'),
    unit: fc.option(fc.constantFrom('Suite 400', 'Ste 12', 'Apt 5B', 'Floor 3', '#210'), { nil: null }),
    town: fc.constantFrom('Mountain View', 'Springfield', 'New York', 'St. Louis', 'Salt Lake City', 'Winston-Salem'),
    state: fc.constantFrom('CA', 'IL', 'NY', 'MO', 'UT', 'NC', 'TX', 'California', 'New York'),
    zip: fc.tuple(digits(5), fc.option(digits(4), { nil: null })).map(([five, four]) => (four === null ? five : `${five}-${four}`)),
  })
  .map(
    ({ company, number, name, unit, town, state, zip }): Sample => ({
      company,
      street: `${number} ${name}`,
      unit,
      zip,
      town: `${town}, ${state}`,
      country: 'USA',
      city: `${town}, ${state}`,
    }),
  );
const usLayouts: Layout[] = [
  (s) => [s.company, s.street, ...(s.unit ? [s.unit] : []), `${s.town} ${s.zip}`],
  (s) => [s.company, streetWithUnit(s, false), `${s.town} ${s.zip}`, s.country],
  (s) => [`${s.company}, ${streetWithUnit(s, false)}, ${s.town} ${s.zip}, ${s.country}`],
];

const ukPostcode = fc
  .tuple(letters(1, 2), fc.integer({ min: 1, max: 9 }), fc.constantFrom('', 'A', 'W', '0', '3'), digits(1), letters(2, 2))
  .map(([area, district, sub, sector, unit]) => `${area}${district}${sub} ${sector}${unit}`);
const ukSample = fc
  .record({
    company: fc.constantFrom('Example Ltd', 'Sample Trading Limited', 'Acme Widgets plc', 'Example Partners LLP'),
    number: fc.tuple(fc.integer({ min: 1, max: 400 }), fc.constantFrom('', 'A', 'B')).map(([n, l]) => `${n}${l}`),
    name: fc.constantFrom('High Street', 'Downing Street', 'City Road', 'Baker Street', 'Station Road', 'Church Lane', 'Quayside'),
    unit: fc.option(fc.constantFrom('Flat 2', 'Unit 5', 'Suite 3', 'Floor 4'), { nil: null }),
    town: fc.constantFrom('London', 'Manchester', 'Birmingham', 'Newcastle upon Tyne', 'Stoke-on-Trent', 'LEEDS'),
    zip: ukPostcode,
  })
  .map(({ company, number, name, unit, town, zip }): Sample => ({
    company,
    street: `${number} ${name}`,
    unit,
    zip,
    town,
    country: 'United Kingdom',
    city: town,
  }));
const ukLayouts: Layout[] = [
  (s) => [s.company, ...(s.unit ? [s.unit] : []), s.street, `${s.town} ${s.zip}`, s.country],
  (s) => [s.company, ...(s.unit ? [s.unit] : []), s.street, s.town, s.zip],
  (s) => [s.company, `${streetWithUnit(s, true)}, ${s.town} ${s.zip}, ${s.country}`],
  (s) => [`${s.company}, ${streetWithUnit(s, true)}, ${s.town}, ${s.zip}`],
];

const frSample = fc
  .record({
    company: fc.constantFrom('Exemple SAS', 'Atelier Exemple SARL', 'Exemple Conseil SA', 'Société Exemple EURL'),
    number: fc.tuple(fc.integer({ min: 1, max: 250 }), fc.constantFrom('', ' bis', ' ter')).map(([n, s]) => `${n}${s}`),
    comma: fc.boolean(),
    name: fc.constantFrom(
      'rue de Rivoli', 'avenue des Champs-Élysées', 'boulevard Victor Hugo', 'place Bellecour', 'quai de la République',
    ),
    zip: fc.tuple(fc.integer({ min: 1, max: 95 }), digits(3)).map(([dept, rest]) => `${String(dept).padStart(2, '0')}${rest}`),
    town: fc.constantFrom('Paris', 'Lyon', 'Aix-en-Provence', 'Saint-Étienne', 'Marseille', 'Lyon Cedex 03', 'PARIS CEDEX 08'),
  })
  .map(({ company, number, comma, name, zip, town }): Sample => ({
    company,
    street: `${number}${comma ? ',' : ''} ${name}`,
    unit: null,
    zip,
    town,
    country: 'France',
    city: town,
  }));
const frLayouts: Layout[] = [
  (s) => [s.company, s.street, `${s.zip} ${s.town}`, s.country],
  (s) => [s.company, `${s.street} ${s.zip} ${s.town}`],
  (s) => [s.company, `${s.street} – ${s.zip} ${s.town}`],
  (s) => [`${s.company} | ${s.street} | ${s.zip} ${s.town}`],
];

const atSample = fc
  .record({
    company: fc.constantFrom('Beispiel GmbH', 'Alpen Digital GmbH', 'Muster e.U.', 'Beispiel KG', 'Alpen Handel OG'),
    name: fc.constantFrom('Stephansplatz', 'Hauptstraße', 'Mariahilfer Straße', 'Graben', 'Landstraßer Hauptstraße'),
    number: fc.constantFrom('1', '5/3/12', '12a', '7-9', '1/3/14', '5/Stiege 3/Top 12'),
    unit: fc.option(fc.constantFrom('Top 12', 'Stiege 2', 'Tür 4'), { nil: null }),
    prefix: fc.constantFrom('', 'A-', 'AT-', 'A '),
    zip: fc.integer({ min: 1010, max: 9992 }).map(String),
    town: fc.constantFrom('Wien', 'Graz', 'Linz', 'Salzburg', 'Innsbruck', 'St. Pölten', 'Klagenfurt am Wörthersee'),
  })
  .map(({ company, name, number, unit, prefix, zip, town }): Sample => ({
    company,
    street: `${name} ${number}`,
    unit,
    zip,
    town: `${prefix}${zip} ${town}`,
    country: 'Österreich',
    city: town,
  }));
const atLayouts: Layout[] = [
  (s) => [s.company, s.street, ...(s.unit ? [s.unit] : []), s.town, s.country],
  (s) => [s.company, `${streetWithUnit(s, false)}, ${s.town}`],
  (s) => [`${s.company}, ${streetWithUnit(s, false)}, ${s.town}, ${s.country}`],
];

/** German and Swiss addresses, which already worked, stay read the same way. */
const deChSample = fc
  .record({
    company: fc.constantFrom(
      'Beispiel GmbH', 'Muster Handel GmbH & Co. KG', 'Kleinkram UG (haftungsbeschränkt)', 'Förderverein Musterschule e.V.',
      'Helvetia Muster AG',
    ),
    street: fc.constantFrom(
      'Musterstraße 12a', 'Hauptstr. 5', 'Unter den Linden 77', 'Kaiserstraße 7–9', 'Am Markt 3', 'Straße des 17. Juni 135',
      'Bahnhofstrasse 10',
    ),
    swiss: fc.boolean(),
    prefix: fc.boolean(),
    zip5: digits(5),
    zip4: fc.integer({ min: 1000, max: 9658 }).map(String),
    town: fc.constantFrom('Berlin', 'München', 'Frankfurt am Main', 'Köln', 'Halle (Saale)', 'Zürich', 'St. Gallen'),
  })
  .map(({ company, street, swiss, prefix, zip5, zip4, town }): Sample => {
    const zip = swiss ? zip4 : zip5;
    return {
      company,
      street,
      unit: null,
      zip,
      town: `${prefix ? (swiss ? 'CH-' : 'D-') : ''}${zip} ${town}`,
      country: swiss ? 'Schweiz' : 'Deutschland',
      city: town,
    };
  });
const deChLayouts: Layout[] = [
  (s) => [s.company, s.street, s.town, s.country],
  (s) => [s.company, `${s.street}, ${s.town}`],
  (s) => [`${s.company}, ${s.street}, ${s.town}, ${s.country}`],
  (s) => [`${s.company} | ${s.street} | ${s.town}`],
];

const headings = fc.constantFrom(
  [], ['Impressum'], ['Imprint'], ['Legal notice'], ['Mentions légales'], ['Impressum', 'Offenlegung gemäß § 25 MedienG'],
);
const noiseLines = fc.array(
  fc.constantFrom(
    'Telefon: +43 1 234 56 78', 'Phone: (650) 253-0000', 'E-Mail: office@beispiel.example', 'EIN: 12-3456789',
    'Companies House 01234567', 'Company No. 09876543', 'SIRET 123 456 789 00012', 'RCS Paris B 123 456 789',
    'FN 123456a', 'UID: ATU12345678', 'VAT: GB123456789', 'TVA intracommunautaire : FR12123456789', 'HRB 123456',
    'Firmenbuchgericht: Handelsgericht Wien', 'Registered in England and Wales',
  ),
  { maxLength: 4 },
);

describe('extractAddress, property-style, per country', () => {
  // A unit line comes back with the street, in the order the country writes it:
  // "Flat 2, 14 High Street", "350 Fifth Avenue, Suite 5100".
  it.each<[string, fc.Arbitrary<Sample>, Layout[], 'unit first' | 'unit last']>([
    ['US', usSample, usLayouts, 'unit last'],
    ['UK', ukSample, ukLayouts, 'unit first'],
    ['French', frSample, frLayouts, 'unit last'],
    ['Austrian', atSample, atLayouts, 'unit last'],
    ['German or Swiss', deChSample, deChLayouts, 'unit last'],
  ])('reads any %s address whole, in any usual layout, among imprint noise', (_, sample, layouts, order) => {
    fc.assert(
      fc.property(sample, fc.constantFrom(...layouts), headings, noiseLines, noiseLines, (s, layout, heading, before, after) => {
        const text = [...before, ...heading, ...layout(s), ...after].join('\n');
        expect(fromText(text)).toEqual(address(s.company, streetWithUnit(s, order === 'unit first'), s.zip, s.city));
      }),
      { numRuns: 300 },
    );
  });

  it('finds no address in any mix of contact and register lines', () => {
    fc.assert(
      fc.property(headings, noiseLines, (heading, noise) => {
        expect(fromText([...heading, 'Beispiel GmbH', ...noise].join('\n'))).toEqual(none);
      }),
    );
  });
});
