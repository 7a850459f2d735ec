import { describe, expect, it } from 'vitest';
import { extractAddress, type PostalAddress } from '../../src/scanner/address.ts';

const none: PostalAddress = { company: null, street: null, zipCode: null, city: null };

const fromText = (text: string) => extractAddress({ text, jsonLd: [] });

describe('extractAddress from the visible text', () => {
  it.each<[string, string, PostalAddress]>([
    [
      'a German GmbH between navigation and register details',
      `Startseite
Leistungen
Impressum
Angaben gemäß § 5 DDG
Beispiel Software GmbH
Musterstraße 12a
10115 Berlin
Vertreten durch:
Geschäftsführerin: Erika Mustermann
Kontakt
Telefon: +49 30 1234567
E-Mail: info@beispiel-software.de
Registereintrag
Registergericht: Amtsgericht Berlin-Charlottenburg
Registernummer: HRB 123456 B
Umsatzsteuer-Identifikationsnummer gemäß § 27a UStG: DE123456789`,
      { company: 'Beispiel Software GmbH', street: 'Musterstraße 12a', zipCode: '10115', city: 'Berlin' },
    ],
    [
      'a German sole trader without legal form, "Str." and a D- prefix',
      `Impressum
Angaben gemäß § 5 TMG
Max Mustermann
Hauptstr. 5
D-80331 München
Telefon: 089 123456`,
      { company: 'Max Mustermann', street: 'Hauptstr. 5', zipCode: '80331', city: 'München' },
    ],
    [
      'a GmbH & Co. KG with a house number range and a two-word town',
      `Impressum
Muster Handel GmbH & Co. KG
Kaiserstraße 7–9
60311 Frankfurt am Main
Deutschland
Persönlich haftende Gesellschafterin: Muster Verwaltungs GmbH`,
      { company: 'Muster Handel GmbH & Co. KG', street: 'Kaiserstraße 7–9', zipCode: '60311', city: 'Frankfurt am Main' },
    ],
    [
      'a UG with street and town on one line',
      `Impressum
Kleinkram UG (haftungsbeschränkt)
Musterweg 3, 04109 Leipzig
E-Mail: hallo@kleinkram.example`,
      { company: 'Kleinkram UG (haftungsbeschränkt)', street: 'Musterweg 3', zipCode: '04109', city: 'Leipzig' },
    ],
    [
      'a registered association under a "Anschrift:" label, street name with a number in it',
      `Kontakt
Förderverein Musterschule e.V.
Anschrift: Straße des 17. Juni 135
10623 Berlin
Vorsitzende: Petra Beispiel`,
      { company: 'Förderverein Musterschule e.V.', street: 'Straße des 17. Juni 135', zipCode: '10623', city: 'Berlin' },
    ],
    [
      'an Austrian disclosure with a labelled company and a door number',
      `Impressum
Offenlegung gemäß § 25 Mediengesetz
Medieninhaber: Alpen Digital GmbH
Mariahilfer Straße 1/3/14
1060 Wien
Österreich
UID: ATU12345678
Firmenbuchnummer: FN 123456a
Firmenbuchgericht: Handelsgericht Wien`,
      { company: 'Alpen Digital GmbH', street: 'Mariahilfer Straße 1/3/14', zipCode: '1060', city: 'Wien' },
    ],
    [
      'a Swiss company on a single comma-separated line',
      `Kontakt
Helvetia Muster AG, Bahnhofstrasse 10, CH-8001 Zürich, Schweiz
Telefon +41 44 123 45 67`,
      { company: 'Helvetia Muster AG', street: 'Bahnhofstrasse 10', zipCode: '8001', city: 'Zürich' },
    ],
    [
      'a footer-style line split by pipes',
      'Beispiel Werbeagentur GmbH | Am Sandtorkai 40 | 20457 Hamburg | Tel. 040 987654',
      { company: 'Beispiel Werbeagentur GmbH', street: 'Am Sandtorkai 40', zipCode: '20457', city: 'Hamburg' },
    ],
    [
      'noise around the address and a second address further down',
      `Zum Inhalt springen
Menü
Wir verwenden Cookies, um unsere Website zu verbessern.
Alle akzeptieren
Impressum
Angaben gemäß § 5 DDG
Tel.: 0221 987654
Bäckerei Korn e.K.
Inhaber: Hans Korn
Am Markt 3
50667 Köln
Telefon: 0221 987654
Fax: 0221 987655
E-Mail: info@baeckerei-korn.example
USt-IdNr.: DE987654321
Datenschutzbeauftragter
Datenschutz Consult GmbH
Ringstraße 1
50668 Köln
© 2025 Bäckerei Korn`,
      { company: 'Bäckerei Korn e.K.', street: 'Am Markt 3', zipCode: '50667', city: 'Köln' },
    ],
    [
      'a French SAS with "12, rue …" under a "Siège social" label',
      `Mentions légales
Éditeur du site
Exemple Médias SAS
Société par actions simplifiée au capital de 10 000 €
Siège social : 12, rue de la Paix
75002 Paris
RCS Paris 123 456 789
Directeur de la publication : Jean Dupont
Hébergeur
OVH SAS
2 rue Kellermann
59100 Roubaix`,
      { company: 'Exemple Médias SAS', street: '12, rue de la Paix', zipCode: '75002', city: 'Paris' },
    ],
    [
      'a French SARL with a Cedex town',
      `Informations légales
Atelier Exemple SARL
8 boulevard Haussmann
75009 Paris Cedex 09
Tél. : 01 23 45 67 89`,
      { company: 'Atelier Exemple SARL', street: '8 boulevard Haussmann', zipCode: '75009', city: 'Paris Cedex 09' },
    ],
    [
      'a UK limited company with a district line and the postcode after the town',
      `Legal notice
Example Trading Ltd
221B Baker Street
Marylebone
London NW1 6XE
United Kingdom
Registered in England and Wales, company number 01234567
VAT number: GB123456789`,
      { company: 'Example Trading Ltd', street: '221B Baker Street', zipCode: 'NW1 6XE', city: 'London' },
    ],
    [
      'a UK plc on one line with the postcode after a comma',
      `Contact us
Acme Widgets plc, 10 High Street, Manchester, M1 1AE
Phone: +44 161 496 0000`,
      { company: 'Acme Widgets plc', street: '10 High Street', zipCode: 'M1 1AE', city: 'Manchester' },
    ],
    [
      'a company above an "Anschrift" heading',
      `Impressum
Beispiel Software GmbH
Anschrift
Musterstraße 12a
10115 Berlin`,
      { company: 'Beispiel Software GmbH', street: 'Musterstraße 12a', zipCode: '10115', city: 'Berlin' },
    ],
    [
      'a floor line, which stays with the street',
      'Beispiel GmbH\nMusterstraße 12\n2. OG\n10115 Berlin',
      { company: 'Beispiel GmbH', street: 'Musterstraße 12, 2. OG', zipCode: '10115', city: 'Berlin' },
    ],
    [
      'a Postfach in place of the street',
      'Beispiel GmbH\nPostfach 10 20 30\n10002 Berlin',
      { company: 'Beispiel GmbH', street: 'Postfach 10 20 30', zipCode: '10002', city: 'Berlin' },
    ],
    [
      'street, postcode and town on one line without a comma',
      'Beispiel GmbH\nMusterweg 3 04109 Leipzig',
      { company: 'Beispiel GmbH', street: 'Musterweg 3', zipCode: '04109', city: 'Leipzig' },
    ],
  ])('reads %s', (_, text, expected) => {
    expect(fromText(text)).toEqual(expected);
  });

  it('never takes a phone number for the street', () => {
    expect(
      fromText(`Impressum
Beispiel GmbH
Telefon: 030 1234567
10115 Berlin`),
    ).toEqual({ company: 'Beispiel GmbH', street: null, zipCode: '10115', city: 'Berlin' });
  });

  it('never takes a copyright line or a register number for the street', () => {
    const withoutStreet = { company: 'Beispiel GmbH', street: null, zipCode: '10115', city: 'Berlin' };
    expect(fromText('Beispiel GmbH\nCopyright 2025\n10115 Berlin')).toEqual(withoutStreet);
    expect(fromText('Beispiel GmbH\nHRB 123456\n10115 Berlin')).toEqual(withoutStreet);
  });

  it('trims surrounding whitespace', () => {
    expect(fromText('  Muster Shop GmbH  \n\t Lindenallee  4 \n  01067   Dresden  ')).toEqual({
      company: 'Muster Shop GmbH',
      street: 'Lindenallee 4',
      zipCode: '01067',
      city: 'Dresden',
    });
  });

  it.each([
    ['an empty page', ''],
    [
      'a blog post',
      `Startseite
Blog
Zehn Tipps für bessere Fotos
Veröffentlicht am 12. März 2025 von Max Mustermann
Über 1200 Leserinnen und Leser haben uns geschrieben.
Seit 2019 Mitglied im Fotoclub.
© 2025 Beispiel Medien GmbH`,
    ],
    [
      'an imprint giving only contact details',
      `Impressum
Beispiel GmbH
Telefon: +49 30 1234567
E-Mail: kontakt@beispiel.example
Registergericht: Amtsgericht Berlin, HRB 98765`,
    ],
    ['an English page', 'About us\nWe have made furniture since 1998.\nCall 0161 496 0000 or write to hello@example.com'],
  ])('gives all nulls for %s', (_, text) => {
    expect(fromText(text)).toEqual(none);
  });
});

describe('extractAddress from JSON-LD', () => {
  it('prefers a LocalBusiness with a PostalAddress over the text', () => {
    const page = {
      text: 'Impressum\nCafé Sonnenschein\nSonnenallee 100 · 12045 Berlin',
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'LocalBusiness',
          name: 'Café Sonnenschein GmbH',
          telephone: '+49 30 555555',
          address: {
            '@type': 'PostalAddress',
            streetAddress: ' Sonnenallee 100, Hinterhaus ',
            postalCode: '12045',
            addressLocality: 'Berlin',
            addressCountry: 'DE',
          },
        },
      ],
    };
    expect(extractAddress(page)).toEqual({
      company: 'Café Sonnenschein GmbH',
      street: 'Sonnenallee 100, Hinterhaus',
      zipCode: '12045',
      city: 'Berlin',
    });
  });

  it('finds the organisation inside @graph, following an @id reference to its address', () => {
    const page = {
      text: '',
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'WebPage', '@id': 'https://verlag.example/impressum/', name: 'Impressum' },
            { '@type': 'WebSite', '@id': 'https://verlag.example/#website', publisher: { '@id': 'https://verlag.example/#org' } },
            {
              '@type': ['Organization', 'Corporation'],
              '@id': 'https://verlag.example/#org',
              name: 'Beispiel Verlag GmbH',
              address: { '@id': 'https://verlag.example/#address' },
            },
            {
              '@type': 'PostalAddress',
              '@id': 'https://verlag.example/#address',
              streetAddress: 'Verlagsweg 4',
              postalCode: 20095,
              addressLocality: 'Hamburg',
            },
          ],
        },
      ],
    };
    expect(extractAddress(page)).toEqual({
      company: 'Beispiel Verlag GmbH',
      street: 'Verlagsweg 4',
      zipCode: '20095',
      city: 'Hamburg',
    });
  });

  it('finds an inline address inside @graph and picks the most complete node', () => {
    const page = {
      text: 'Mentions légales',
      jsonLd: [
        { '@context': 'https://schema.org', '@type': 'BreadcrumbList', itemListElement: [] },
        {
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'Person', name: 'Jean Dupont', address: { '@type': 'PostalAddress', addressLocality: 'Lyon' } },
            {
              '@type': 'Organization',
              name: 'Exemple Conseil SARL',
              address: [
                { '@type': 'PostalAddress', streetAddress: '3 place Bellecour', postalCode: '69002', addressLocality: 'Lyon' },
              ],
            },
          ],
        },
      ],
    };
    expect(extractAddress(page)).toEqual({
      company: 'Exemple Conseil SARL',
      street: '3 place Bellecour',
      zipCode: '69002',
      city: 'Lyon',
    });
  });

  it('fills what JSON-LD leaves out from the text', () => {
    const page = {
      text: 'Impressum\nNordlicht Reisen GmbH\nHafenstraße 8\n24103 Kiel',
      jsonLd: [{ '@type': 'TravelAgency', name: 'Nordlicht Reisen', address: { '@type': 'PostalAddress', addressLocality: 'Kiel' } }],
    };
    expect(extractAddress(page)).toEqual({
      company: 'Nordlicht Reisen',
      street: 'Hafenstraße 8',
      zipCode: '24103',
      city: 'Kiel',
    });
  });

  it('reads an address given as one string', () => {
    const page = {
      text: '',
      jsonLd: [{ '@type': 'Organization', name: 'Beispiel AG', address: 'Königsallee 1, 40212 Düsseldorf' }],
    };
    expect(extractAddress(page)).toEqual({
      company: 'Beispiel AG',
      street: 'Königsallee 1',
      zipCode: '40212',
      city: 'Düsseldorf',
    });
  });

  it('gives all nulls when neither JSON-LD nor the text holds an address', () => {
    const page = {
      text: 'Impressum\nE-Mail: info@example.com',
      jsonLd: [
        { '@type': 'WebSite', name: 'Beispiel', url: 'https://example.com/' },
        { '@type': 'Organization', name: 'Beispiel GmbH', logo: 'https://example.com/logo.png' },
        null,
        'not an object',
      ],
    };
    expect(extractAddress(page)).toEqual(none);
  });
});
