import type { Preset, PresetCookie } from '../preset.ts';

/**
 * Built-in presets for embedded content and widgets: video and audio players, maps, social
 * plugins, chat widgets, fonts and CDNs, security checks, payment, consent managers, forms,
 * reviews and comments, and the session cookies of common site platforms. Ids 200–399.
 *
 * Facts (names, vendors, cookie names, lifetimes, hosts, policy addresses) come from the
 * vendors' public documentation and the Open Cookie Database; every text is our own.
 */

/** One cookie or storage entry; `wildcard` follows from a `*` in the name. */
const entry = (
  name: string,
  storageType: PresetCookie['storageType'],
  lifetime: string,
  en_US: string,
  de_DE: string,
): PresetCookie => ({ name, wildcard: name.includes('*'), storageType, lifetime, description: { de_DE, en_US } });

const cookie = (name: string, lifetime: string, en_US: string, de_DE: string) =>
  entry(name, 'cookie', lifetime, en_US, de_DE);

const OTHER = '15c61c3';
const SOCIAL = '6cd2721';
/** Only for what passes the rule of README.md ("Technically necessary"); each such preset is listed there with its reason. */
const NECESSARY = '41ba25c';

const GOOGLE = 'Google Ireland Limited';
const GOOGLE_PRIVACY = 'https://policies.google.com/privacy';
const META = 'Meta Platforms Ireland Limited';
const CLOUDFLARE = 'Cloudflare, Inc.';
const CLOUDFLARE_PRIVACY = 'https://www.cloudflare.com/privacypolicy/';

export const embedsAndWidgets: Preset[] = [
  // ── Video ───────────────────────────────────────────────────────────────────────────────
  {
    id: 200,
    name: 'YouTube',
    vendor: GOOGLE,
    purpose: OTHER,
    category: 'video',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'YouTube',
        description:
          'Eingebettete YouTube-Videos, auch über die Domain youtube-nocookie.com. Beim Abspielen werden Daten an Google übertragen.',
      },
      en_US: {
        name: 'YouTube',
        description:
          'Embedded YouTube videos, including the youtube-nocookie.com domain. Playing a video sends data to Google.',
      },
    },
    cookies: [
      cookie(
        'VISITOR_INFO1_LIVE',
        '6 months',
        'Estimates the viewer’s bandwidth and keeps player settings for returning visits.',
        'Schätzt die Bandbreite des Zuschauers und merkt sich Player-Einstellungen für spätere Besuche.',
      ),
      cookie(
        'VISITOR_PRIVACY_METADATA',
        '6 months',
        'Records the visitor’s consent and privacy state for YouTube.',
        'Hält den Einwilligungs- und Datenschutzstatus des Besuchers für YouTube fest.',
      ),
      cookie(
        'YSC',
        'session',
        'Random ID that ties together the videos watched during one browser session.',
        'Zufällige Kennung, die die in einer Browsersitzung angesehenen Videos verknüpft.',
      ),
      entry(
        'yt-remote-*',
        'localStorage',
        'persistent',
        'Player entries for casting and remembering the connected playback device.',
        'Player-Einträge für das Streamen auf andere Geräte und das zuletzt verbundene Wiedergabegerät.',
      ),
    ],
    signals: {
      scripts: ['www.youtube.com/iframe_api', 'www.youtube.com/player_api'],
      iframes: ['www.youtube.com/embed', 'www.youtube-nocookie.com/embed'],
    },
  },
  {
    id: 201,
    name: 'Vimeo',
    vendor: 'Vimeo.com, Inc.',
    purpose: OTHER,
    category: 'video',
    privacyPolicyUrl: 'https://vimeo.com/privacy',
    translations: {
      de_DE: {
        name: 'Vimeo',
        description: 'Videoplayer von Vimeo, der Videos direkt auf der Seite abspielt und dazu Vimeo-Server lädt.',
      },
      en_US: {
        name: 'Vimeo',
        description: 'The Vimeo video player, which plays videos in the page and loads them from Vimeo’s servers.',
      },
    },
    cookies: [
      cookie(
        'vuid',
        '2 years',
        'Visitor ID Vimeo uses to build viewing statistics for the video owner.',
        'Besucherkennung, mit der Vimeo Abrufstatistiken für den Inhaber des Videos erstellt.',
      ),
      cookie(
        'player',
        '1 year',
        'Keeps player preferences such as volume, quality and subtitles.',
        'Speichert Player-Vorlieben wie Lautstärke, Qualität und Untertitel.',
      ),
    ],
    signals: {
      scripts: ['player.vimeo.com/api'],
      iframes: ['player.vimeo.com/video'],
    },
  },
  {
    id: 202,
    name: 'Wistia',
    vendor: 'Wistia, Inc.',
    purpose: OTHER,
    category: 'video',
    privacyPolicyUrl: 'https://wistia.com/privacy',
    translations: {
      de_DE: {
        name: 'Wistia',
        description: 'Videoplattform für Unternehmen; eingebettete Wistia-Player laden Videos und Auswertungen von Wistia.',
      },
      en_US: {
        name: 'Wistia',
        description: 'Business video hosting; embedded Wistia players load videos and viewer analytics from Wistia.',
      },
    },
    cookies: [
      cookie(
        '_distillery',
        '1 year',
        'Wistia visitor key that links views of the same visitor for the site’s video statistics.',
        'Besucherschlüssel von Wistia, der Aufrufe desselben Besuchers für die Videostatistik verbindet.',
      ),
      cookie(
        'wistia-video-progress-*',
        'session',
        'Remembers how far a video was watched so playback can resume there.',
        'Merkt sich, bis zu welcher Stelle ein Video lief, damit es dort weiterspielt.',
      ),
    ],
    signals: {
      scripts: ['fast.wistia.com/assets/external', 'fast.wistia.com/embed', 'fast.wistia.net/assets/external'],
      iframes: ['fast.wistia.net/embed/iframe', 'fast.wistia.com/embed/iframe'],
    },
  },
  {
    id: 203,
    name: 'Dailymotion',
    vendor: 'Dailymotion SA',
    purpose: OTHER,
    category: 'video',
    privacyPolicyUrl: 'https://legal.dailymotion.com/en/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Dailymotion',
        description: 'Eingebetteter Videoplayer der französischen Plattform Dailymotion.',
      },
      en_US: {
        name: 'Dailymotion',
        description: 'Embedded video player of the French video platform Dailymotion.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['geo.dailymotion.com/libs/player', 'api.dmcdn.net/all.js'],
      iframes: ['www.dailymotion.com/embed', 'geo.dailymotion.com/player'],
    },
  },
  {
    id: 204,
    name: 'Twitch',
    vendor: 'Twitch Interactive, Inc.',
    purpose: OTHER,
    category: 'video',
    privacyPolicyUrl: 'https://www.twitch.tv/p/legal/privacy-notice/',
    translations: {
      de_DE: {
        name: 'Twitch',
        description: 'Eingebettete Livestreams, Videos, Clips oder Chats von Twitch.',
      },
      en_US: {
        name: 'Twitch',
        description: 'Embedded live streams, videos, clips or chat from Twitch.',
      },
    },
    cookies: [
      cookie(
        'unique_id',
        '10 years',
        'Long-lived device ID Twitch uses to recognise a browser again.',
        'Langlebige Gerätekennung, an der Twitch einen Browser wiedererkennt.',
      ),
      cookie(
        'server_session_id',
        'session',
        'Identifies the current session with Twitch’s servers.',
        'Kennzeichnet die laufende Sitzung gegenüber den Twitch-Servern.',
      ),
    ],
    signals: {
      scripts: ['embed.twitch.tv/embed/v1.js', 'player.twitch.tv/js/embed'],
      iframes: ['player.twitch.tv', 'clips.twitch.tv/embed', 'www.twitch.tv/embed'],
    },
  },

  // ── Audio ───────────────────────────────────────────────────────────────────────────────
  {
    id: 210,
    name: 'Spotify',
    vendor: 'Spotify AB',
    purpose: OTHER,
    category: 'audio',
    privacyPolicyUrl: 'https://www.spotify.com/legal/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Spotify',
        description: 'Eingebetteter Spotify-Player für Titel, Alben, Playlists und Podcasts.',
      },
      en_US: {
        name: 'Spotify',
        description: 'Embedded Spotify player for tracks, albums, playlists and podcasts.',
      },
    },
    cookies: [
      cookie(
        'sp_t',
        '2 months',
        'Spotify identifier for the browser, used to recognise it and measure use.',
        'Spotify-Kennung des Browsers, mit der er wiedererkannt und die Nutzung gemessen wird.',
      ),
      cookie(
        'sp_landing',
        '1 day',
        'Notes the page through which the visitor first reached Spotify.',
        'Hält fest, über welche Seite der Besucher zu Spotify gekommen ist.',
      ),
    ],
    signals: {
      scripts: ['open.spotify.com/embed/iframe-api'],
      iframes: ['open.spotify.com/embed'],
    },
  },
  {
    id: 211,
    name: 'SoundCloud',
    vendor: 'SoundCloud Global Limited & Co. KG',
    purpose: OTHER,
    category: 'audio',
    privacyPolicyUrl: 'https://soundcloud.com/pages/privacy',
    translations: {
      de_DE: {
        name: 'SoundCloud',
        description: 'Eingebetteter SoundCloud-Player, der Audiotitel von SoundCloud abspielt.',
      },
      en_US: {
        name: 'SoundCloud',
        description: 'Embedded SoundCloud player that streams audio tracks from SoundCloud.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['w.soundcloud.com/player/api.js'],
      iframes: ['w.soundcloud.com/player'],
    },
  },
  {
    id: 212,
    name: 'Apple Podcasts and Apple Music embeds',
    vendor: 'Apple Distribution International Limited',
    purpose: OTHER,
    category: 'audio',
    privacyPolicyUrl: 'https://www.apple.com/legal/privacy/',
    translations: {
      de_DE: {
        name: 'Apple Podcasts und Apple Music (eingebettet)',
        description: 'Eingebettete Player für Podcastfolgen und Musik aus Apple Podcasts und Apple Music.',
      },
      en_US: {
        name: 'Apple Podcasts and Apple Music embeds',
        description: 'Embedded players for podcast episodes and music from Apple Podcasts and Apple Music.',
      },
    },
    cookies: [],
    signals: {
      scripts: [],
      iframes: ['embed.podcasts.apple.com', 'embed.music.apple.com'],
    },
  },

  // ── Maps ────────────────────────────────────────────────────────────────────────────────
  {
    id: 220,
    name: 'Google Maps',
    vendor: GOOGLE,
    purpose: OTHER,
    category: 'maps',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Maps',
        description: 'Interaktive Karten von Google, eingebettet als Kartenfenster oder über die Maps-JavaScript-API.',
      },
      en_US: {
        name: 'Google Maps',
        description: 'Interactive Google maps, embedded as a map frame or through the Maps JavaScript API.',
      },
    },
    cookies: [
      cookie(
        'NID',
        '6 months',
        'Google ID that stores preferences such as language and helps Google recognise the browser.',
        'Google-Kennung, die Einstellungen wie die Sprache speichert und den Browser für Google wiedererkennbar macht.',
      ),
    ],
    signals: {
      scripts: ['maps.googleapis.com/maps/api/js', 'maps.google.com/maps/api/js'],
      iframes: ['www.google.com/maps/embed', 'www.google.com/maps/d/embed', 'maps.google.com/maps'],
    },
  },
  {
    id: 221,
    name: 'OpenStreetMap',
    vendor: 'OpenStreetMap Foundation',
    purpose: OTHER,
    category: 'maps',
    privacyPolicyUrl: 'https://osmfoundation.org/wiki/Privacy_Policy',
    translations: {
      de_DE: {
        name: 'OpenStreetMap',
        description: 'Karte aus dem freien OpenStreetMap-Projekt, eingebettet über openstreetmap.org.',
      },
      en_US: {
        name: 'OpenStreetMap',
        description: 'A map from the open OpenStreetMap project, embedded from openstreetmap.org.',
      },
    },
    cookies: [],
    signals: {
      scripts: [],
      iframes: ['www.openstreetmap.org/export/embed.html'],
    },
  },
  {
    id: 222,
    name: 'Mapbox',
    vendor: 'Mapbox, Inc.',
    purpose: OTHER,
    category: 'maps',
    privacyPolicyUrl: 'https://www.mapbox.com/legal/privacy',
    translations: {
      de_DE: {
        name: 'Mapbox',
        description: 'Kartendienst von Mapbox; Karten, Kacheln und Skripte werden von Mapbox-Servern geladen.',
      },
      en_US: {
        name: 'Mapbox',
        description: 'Mapbox mapping service; maps, tiles and scripts are loaded from Mapbox servers.',
      },
    },
    cookies: [
      entry(
        'mapbox.eventData*',
        'localStorage',
        'persistent',
        'Telemetry data of the Mapbox map library, including a random device ID.',
        'Telemetriedaten der Mapbox-Kartenbibliothek, darunter eine zufällige Gerätekennung.',
      ),
    ],
    signals: {
      scripts: ['api.mapbox.com/mapbox-gl-js', 'api.mapbox.com/mapbox.js'],
      iframes: ['api.mapbox.com/styles/v1'],
    },
  },
  {
    id: 223,
    name: 'Bing Maps',
    vendor: 'Microsoft Ireland Operations Limited',
    purpose: OTHER,
    category: 'maps',
    privacyPolicyUrl: 'https://privacy.microsoft.com/privacystatement',
    translations: {
      de_DE: {
        name: 'Bing Maps',
        description: 'Karten von Microsoft Bing, eingebettet als Kartenfenster oder über das Bing-Maps-Steuerelement.',
      },
      en_US: {
        name: 'Bing Maps',
        description: 'Microsoft Bing maps, embedded as a map frame or through the Bing Maps control.',
      },
    },
    cookies: [
      cookie(
        'MUID',
        '13 months',
        'Microsoft ID that recognises the browser across Microsoft services.',
        'Microsoft-Kennung, die den Browser über Microsoft-Dienste hinweg wiedererkennt.',
      ),
    ],
    signals: {
      scripts: ['www.bing.com/api/maps/mapcontrol'],
      iframes: ['www.bing.com/maps/embed'],
    },
  },

  // ── Social media plugins and embeds ─────────────────────────────────────────────────────
  {
    id: 230,
    name: 'Facebook social plugins',
    vendor: META,
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://www.facebook.com/privacy/policy/',
    translations: {
      de_DE: {
        name: 'Facebook Social Plugins',
        description: 'Gefällt-mir- und Teilen-Schaltflächen, eingebettete Beiträge und Seiten-Boxen von Facebook.',
      },
      en_US: {
        name: 'Facebook social plugins',
        description: 'Facebook like and share buttons, embedded posts and page boxes.',
      },
    },
    cookies: [
      cookie(
        'datr',
        '2 years',
        'Identifies the browser to Facebook to spot suspicious logins and protect accounts.',
        'Kennzeichnet den Browser gegenüber Facebook, um verdächtige Anmeldungen zu erkennen.',
      ),
      cookie(
        'sb',
        '2 years',
        'Facebook browser ID that supports login and account security.',
        'Browserkennung von Facebook für Anmeldung und Kontosicherheit.',
      ),
      cookie(
        'fr',
        '90 days',
        'Facebook advertising cookie used to deliver and measure ads.',
        'Werbe-Cookie von Facebook, mit dem Anzeigen ausgespielt und gemessen werden.',
      ),
      cookie(
        'c_user',
        '1 year',
        'Holds the user ID of a person logged in to Facebook.',
        'Enthält die Nutzerkennung einer bei Facebook angemeldeten Person.',
      ),
      cookie(
        'xs',
        '1 year',
        'Session token of a person logged in to Facebook.',
        'Sitzungsschlüssel einer bei Facebook angemeldeten Person.',
      ),
    ],
    signals: {
      scripts: ['connect.facebook.net/en_US/sdk.js', 'connect.facebook.net/de_DE/sdk.js'],
      iframes: ['www.facebook.com/plugins'],
    },
  },
  {
    id: 231,
    name: 'Instagram',
    vendor: META,
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://privacycenter.instagram.com/policy',
    translations: {
      de_DE: {
        name: 'Instagram',
        description: 'Eingebettete Instagram-Beiträge und Reels, die von Instagram geladen werden.',
      },
      en_US: {
        name: 'Instagram',
        description: 'Embedded Instagram posts and reels, loaded from Instagram.',
      },
    },
    cookies: [
      cookie(
        'ig_did',
        'persistent',
        'Instagram device ID used to recognise the browser.',
        'Gerätekennung von Instagram, an der der Browser wiedererkannt wird.',
      ),
      cookie(
        'csrftoken',
        '1 year',
        'Protects Instagram requests against cross-site request forgery.',
        'Schützt Anfragen an Instagram vor seitenübergreifender Anfragefälschung.',
      ),
    ],
    signals: {
      scripts: ['www.instagram.com/embed.js'],
      iframes: ['www.instagram.com/p/', 'www.instagram.com/reel/'],
    },
  },
  {
    id: 232,
    name: 'X (Twitter)',
    vendor: 'Twitter International Unlimited Company',
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://x.com/en/privacy',
    translations: {
      de_DE: {
        name: 'X (Twitter)',
        description: 'Eingebettete Posts, Timelines und Teilen-Schaltflächen von X, früher Twitter.',
      },
      en_US: {
        name: 'X (Twitter)',
        description: 'Embedded posts, timelines and share buttons from X, formerly Twitter.',
      },
    },
    cookies: [
      cookie(
        'guest_id',
        '2 years',
        'ID for visitors who are not logged in to X.',
        'Kennung für Besucher, die nicht bei X angemeldet sind.',
      ),
      cookie(
        'personalization_id',
        '2 years',
        'Links activity on and off X to personalise content and ads.',
        'Verknüpft Aktivitäten auf und außerhalb von X, um Inhalte und Werbung anzupassen.',
      ),
    ],
    signals: {
      scripts: ['platform.twitter.com/widgets.js'],
      iframes: ['platform.twitter.com/embed', 'syndication.twitter.com'],
    },
  },
  {
    id: 233,
    name: 'LinkedIn plugins',
    vendor: 'LinkedIn Ireland Unlimited Company',
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://www.linkedin.com/legal/privacy-policy',
    translations: {
      de_DE: {
        name: 'LinkedIn-Plugins',
        description: 'Teilen-Schaltflächen, Profil-Badges und eingebettete Beiträge von LinkedIn.',
      },
      en_US: {
        name: 'LinkedIn plugins',
        description: 'LinkedIn share buttons, profile badges and embedded posts.',
      },
    },
    cookies: [
      cookie(
        'bcookie',
        '1 year',
        'LinkedIn browser ID used to recognise the device.',
        'Browserkennung von LinkedIn, an der das Gerät wiedererkannt wird.',
      ),
      cookie(
        'bscookie',
        '1 year',
        'Secure LinkedIn browser cookie used for login security.',
        'Gesichertes Browser-Cookie von LinkedIn für die Anmeldesicherheit.',
      ),
      cookie(
        'lidc',
        '1 day',
        'Chooses the LinkedIn data centre that answers the browser’s requests.',
        'Wählt das LinkedIn-Rechenzentrum, das die Anfragen des Browsers beantwortet.',
      ),
    ],
    signals: {
      scripts: ['platform.linkedin.com'],
      iframes: ['www.linkedin.com/embed'],
    },
  },
  {
    id: 234,
    name: 'Pinterest',
    vendor: 'Pinterest Europe Limited',
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://policy.pinterest.com/privacy-policy',
    translations: {
      de_DE: {
        name: 'Pinterest',
        description: 'Merken-Schaltflächen und eingebettete Pins oder Pinnwände von Pinterest.',
      },
      en_US: {
        name: 'Pinterest',
        description: 'Pinterest save buttons and embedded pins or boards.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['assets.pinterest.com/js/pinit.js'],
      iframes: ['assets.pinterest.com/ext/embed.html'],
    },
  },
  {
    id: 235,
    name: 'TikTok embeds',
    vendor: 'TikTok Technology Limited',
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://www.tiktok.com/legal/page/eea/privacy-policy/en',
    translations: {
      de_DE: {
        name: 'TikTok (eingebettet)',
        description: 'Eingebettete TikTok-Videos und Profile, die von TikTok geladen werden.',
      },
      en_US: {
        name: 'TikTok embeds',
        description: 'Embedded TikTok videos and profiles, loaded from TikTok.',
      },
    },
    cookies: [
      cookie(
        'ttwid',
        '1 year',
        'TikTok visitor ID used to recognise the browser.',
        'Besucherkennung von TikTok, an der der Browser wiedererkannt wird.',
      ),
    ],
    signals: {
      scripts: ['www.tiktok.com/embed.js'],
      iframes: ['www.tiktok.com/embed', 'www.tiktok.com/player'],
    },
  },
  {
    id: 236,
    name: 'XING',
    vendor: 'New Work SE',
    purpose: SOCIAL,
    category: 'social-media',
    privacyPolicyUrl: 'https://privacy.xing.com/en/privacy-policy',
    translations: {
      de_DE: {
        name: 'XING',
        description: 'Teilen-Schaltfläche des Karrierenetzwerks XING, geladen von XING-Servern.',
      },
      en_US: {
        name: 'XING',
        description: 'Share button of the XING career network, loaded from XING servers.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['www.xing-share.com'],
      iframes: [],
    },
  },

  // ── Chat and support widgets ────────────────────────────────────────────────────────────
  {
    id: 250,
    name: 'Intercom',
    vendor: 'Intercom R&D Unlimited Company',
    purpose: OTHER,
    category: 'chat',
    privacyPolicyUrl: 'https://www.intercom.com/legal/privacy',
    translations: {
      de_DE: {
        name: 'Intercom',
        description: 'Intercom Messenger für Live-Chat, Support und Nachrichten an Besucher.',
      },
      en_US: {
        name: 'Intercom',
        description: 'The Intercom Messenger for live chat, support and messages to visitors.',
      },
    },
    cookies: [
      cookie(
        'intercom-id-*',
        '9 months',
        'Anonymous visitor ID so the Messenger can keep earlier conversations.',
        'Anonyme Besucherkennung, damit der Messenger frühere Gespräche behält.',
      ),
      cookie(
        'intercom-session-*',
        '1 week',
        'Keeps the Messenger session so conversations stay reachable between pages.',
        'Hält die Messenger-Sitzung, damit Gespräche seitenübergreifend erreichbar bleiben.',
      ),
      cookie(
        'intercom-device-id-*',
        '9 months',
        'Device ID Intercom uses to count devices and prevent abuse.',
        'Gerätekennung, mit der Intercom Geräte zählt und Missbrauch verhindert.',
      ),
    ],
    signals: {
      scripts: ['widget.intercom.io', 'js.intercomcdn.com'],
      iframes: [],
    },
  },
  {
    id: 251,
    name: 'Zendesk',
    vendor: 'Zendesk, Inc.',
    purpose: OTHER,
    category: 'chat',
    privacyPolicyUrl: 'https://www.zendesk.com/company/agreements-and-terms/privacy-notice/',
    translations: {
      de_DE: {
        name: 'Zendesk',
        description: 'Zendesk Web Widget für Chat, Messaging und Hilfeartikel auf der Website.',
      },
      en_US: {
        name: 'Zendesk',
        description: 'The Zendesk Web Widget for chat, messaging and help articles on the website.',
      },
    },
    cookies: [
      cookie(
        '__zlcmid',
        '1 year',
        'Visitor ID the chat widget uses to authenticate the visitor.',
        'Besucherkennung, mit der sich das Chat-Widget den Besucher merkt.',
      ),
      cookie(
        '__zlcprivacy',
        '1 year',
        'Stores the visitor’s cookie choice for the chat widget.',
        'Speichert die Cookie-Entscheidung des Besuchers für das Chat-Widget.',
      ),
      entry(
        'ZD-suid',
        'localStorage',
        '20 minutes',
        'ID of the current widget session.',
        'Kennung der laufenden Widget-Sitzung.',
      ),
      entry(
        'ZD-buid',
        'localStorage',
        'persistent',
        'Lasting ID of the browser for the widget.',
        'Dauerhafte Kennung des Browsers für das Widget.',
      ),
    ],
    signals: {
      scripts: ['static.zdassets.com/ekr/snippet.js', 'v2.zopim.com'],
      iframes: [],
    },
  },
  {
    id: 252,
    name: 'LiveChat',
    vendor: 'Text S.A.',
    purpose: OTHER,
    category: 'chat',
    privacyPolicyUrl: 'https://www.livechat.com/legal/privacy-policy/',
    translations: {
      de_DE: {
        name: 'LiveChat',
        description: 'Chat-Fenster von LiveChat, über das Besucher mit dem Support schreiben.',
      },
      en_US: {
        name: 'LiveChat',
        description: 'The LiveChat chat window through which visitors write to support staff.',
      },
    },
    cookies: [
      cookie(
        '__lc_cid',
        '3 years',
        'Customer ID that links the visitor to earlier chats.',
        'Kundenkennung, die den Besucher mit früheren Chats verbindet.',
      ),
      cookie(
        '__lc_cst',
        '3 years',
        'Security token that belongs to the customer ID of the chat.',
        'Sicherheitsschlüssel, der zur Kundenkennung des Chats gehört.',
      ),
    ],
    signals: {
      scripts: ['cdn.livechatinc.com/tracking.js'],
      iframes: ['secure.livechatinc.com'],
    },
  },
  {
    id: 253,
    name: 'Tawk.to',
    vendor: 'tawk.to inc.',
    purpose: OTHER,
    category: 'chat',
    privacyPolicyUrl: 'https://www.tawk.to/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Tawk.to',
        description: 'Kostenloses Live-Chat-Widget von tawk.to für Gespräche mit Besuchern.',
      },
      en_US: {
        name: 'Tawk.to',
        description: 'Free live chat widget by tawk.to for conversations with visitors.',
      },
    },
    cookies: [
      cookie(
        'tawk_uuid_*',
        '6 months',
        'Recognises a returning visitor of this chat property.',
        'Erkennt wiederkehrende Besucher dieses Chat-Angebots.',
      ),
      cookie(
        'twk_idm_key',
        'session',
        'Manages the visitor’s connection to the chat.',
        'Verwaltet die Verbindung des Besuchers zum Chat.',
      ),
      cookie(
        'TawkConnectionTime',
        'session',
        'Keeps the widget in step when the site is open in several tabs.',
        'Hält das Widget abgestimmt, wenn die Seite in mehreren Tabs offen ist.',
      ),
      entry(
        'twk_token_*',
        'localStorage',
        'persistent',
        'Access token of the chat widget.',
        'Zugangsschlüssel des Chat-Widgets.',
      ),
    ],
    signals: {
      scripts: ['embed.tawk.to'],
      iframes: [],
    },
  },
  {
    id: 254,
    name: 'Drift',
    vendor: 'Drift.com, Inc.',
    purpose: OTHER,
    category: 'chat',
    privacyPolicyUrl: 'https://www.drift.com/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Drift',
        description: 'Chat- und Chatbot-Widget von Drift (heute Teil von Salesloft) für Vertrieb und Support.',
      },
      en_US: {
        name: 'Drift',
        description: 'Chat and chatbot widget by Drift (now part of Salesloft) for sales and support.',
      },
    },
    cookies: [
      cookie(
        'driftt_aid',
        '2 years',
        'Anonymous ID that links the visitor to their Drift profile.',
        'Anonyme Kennung, die den Besucher mit seinem Drift-Profil verknüpft.',
      ),
      cookie(
        'driftt_sid',
        '30 minutes',
        'ID of the current chat session.',
        'Kennung der aktuellen Chat-Sitzung.',
      ),
      cookie(
        'DFTT_END_USER_PREV_BOOTSTRAPPED',
        '2 years',
        'Notes that the visitor is already registered with Drift, which speeds up later page loads.',
        'Vermerkt, dass der Besucher bei Drift schon angelegt ist, damit spätere Seiten schneller laden.',
      ),
    ],
    signals: {
      scripts: ['js.driftt.com'],
      iframes: ['js.driftt.com/core'],
    },
  },
  {
    id: 255,
    name: 'Crisp',
    vendor: 'Crisp IM SAS',
    purpose: OTHER,
    category: 'chat',
    privacyPolicyUrl: 'https://crisp.chat/en/privacy/',
    translations: {
      de_DE: {
        name: 'Crisp',
        description: 'Chatbox des französischen Anbieters Crisp für Nachrichten zwischen Besuchern und Support.',
      },
      en_US: {
        name: 'Crisp',
        description: 'Chatbox by the French provider Crisp for messages between visitors and support.',
      },
    },
    cookies: [
      cookie(
        'crisp-client%2Fsession%2F*',
        '6 months',
        'Ties the browser to its chat session so messages remain after page changes.',
        'Bindet den Browser an seine Chat-Sitzung, damit Nachrichten beim Seitenwechsel erhalten bleiben.',
      ),
    ],
    signals: {
      scripts: ['client.crisp.chat'],
      iframes: [],
    },
  },

  // ── Fonts and CDNs ──────────────────────────────────────────────────────────────────────
  {
    id: 270,
    name: 'Google Fonts',
    vendor: GOOGLE,
    purpose: OTHER,
    category: 'fonts-and-cdn',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google Fonts',
        description: 'Schriftarten, die von Google-Servern geladen werden; dabei erhält Google die IP-Adresse des Besuchers.',
      },
      en_US: {
        name: 'Google Fonts',
        description: 'Web fonts loaded from Google’s servers, which thereby receive the visitor’s IP address.',
      },
    },
    cookies: [],
    signals: {
      // Google Fonts serves no scripts: it loads only as stylesheets and fonts, which the banner
      // cannot hold (the scan advises self-hosting; an embedding of it is imported inactive).
      scripts: [],
      iframes: [],
      // The stylesheet comes from fonts.googleapis.com, the font files from fonts.gstatic.com.
      resources: ['fonts.googleapis.com', 'fonts.gstatic.com'],
    },
  },
  {
    id: 271,
    name: 'Adobe Fonts',
    vendor: 'Adobe Systems Software Ireland Limited',
    purpose: OTHER,
    category: 'fonts-and-cdn',
    privacyPolicyUrl: 'https://www.adobe.com/privacy/policy.html',
    translations: {
      de_DE: {
        name: 'Adobe Fonts',
        description: 'Schriftarten von Adobe Fonts (früher Typekit), geladen von Adobe-Servern.',
      },
      en_US: {
        name: 'Adobe Fonts',
        description: 'Web fonts from Adobe Fonts (formerly Typekit), loaded from Adobe’s servers.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['use.typekit.net', 'p.typekit.net'],
      iframes: [],
      // A project's stylesheet and fonts come from use.typekit.net; p.typekit.net counts page views.
      resources: ['use.typekit.net', 'p.typekit.net'],
    },
  },
  {
    id: 272,
    name: 'Font Awesome',
    vendor: 'Fonticons, Inc.',
    purpose: OTHER,
    category: 'fonts-and-cdn',
    privacyPolicyUrl: 'https://fontawesome.com/privacy',
    translations: {
      de_DE: {
        name: 'Font Awesome',
        description: 'Symbolschrift Font Awesome, eingebunden über ein Kit oder das CDN von Font Awesome.',
      },
      en_US: {
        name: 'Font Awesome',
        description: 'The Font Awesome icon font, included through a kit or the Font Awesome CDN.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['kit.fontawesome.com', 'use.fontawesome.com', 'ka-f.fontawesome.com'],
      iframes: [],
      // The CDN's stylesheets (use.) and the fonts a kit loads (ka-f. free, ka-p. Pro).
      resources: ['use.fontawesome.com', 'ka-f.fontawesome.com', 'ka-p.fontawesome.com'],
    },
  },
  {
    id: 273,
    name: 'jsDelivr',
    vendor: 'Prospect One sp. z o.o.',
    purpose: OTHER,
    category: 'fonts-and-cdn',
    privacyPolicyUrl: 'https://www.jsdelivr.com/terms/privacy-policy-jsdelivr-net',
    translations: {
      de_DE: {
        name: 'jsDelivr',
        description: 'Öffentliches CDN für Open-Source-Dateien aus npm und GitHub; setzt selbst keine Cookies.',
      },
      en_US: {
        name: 'jsDelivr',
        description: 'Public CDN for open-source files from npm and GitHub; it sets no cookies itself.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['cdn.jsdelivr.net', 'fastly.jsdelivr.net'],
      iframes: [],
      resources: ['cdn.jsdelivr.net', 'fastly.jsdelivr.net'],
    },
  },
  {
    id: 274,
    name: 'cdnjs',
    vendor: CLOUDFLARE,
    purpose: OTHER,
    category: 'fonts-and-cdn',
    privacyPolicyUrl: CLOUDFLARE_PRIVACY,
    translations: {
      de_DE: {
        name: 'cdnjs',
        description: 'Von Cloudflare betriebenes CDN für verbreitete JavaScript- und CSS-Bibliotheken.',
      },
      en_US: {
        name: 'cdnjs',
        description: 'CDN for widely used JavaScript and CSS libraries, run by Cloudflare.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['cdnjs.cloudflare.com'],
      iframes: [],
      resources: ['cdnjs.cloudflare.com'],
    },
  },
  {
    id: 275,
    name: 'Bunny Fonts',
    vendor: 'BunnyWay d.o.o.',
    purpose: OTHER,
    category: 'fonts-and-cdn',
    privacyPolicyUrl: 'https://bunny.net/privacy',
    translations: {
      de_DE: {
        name: 'Bunny Fonts',
        description:
          'Schriftarten vom CDN bunny.net, als datenschutzfreundlicher Ersatz für Google Fonts gedacht; die Server erhalten dennoch die IP-Adresse des Besuchers.',
      },
      en_US: {
        name: 'Bunny Fonts',
        description:
          'Web fonts from the bunny.net CDN, meant as a privacy-friendly stand-in for Google Fonts; its servers still receive the visitor’s IP address.',
      },
    },
    cookies: [],
    signals: {
      scripts: [],
      iframes: [],
      resources: ['fonts.bunny.net'],
    },
  },

  // ── Security ────────────────────────────────────────────────────────────────────────────
  {
    id: 290,
    name: 'Google reCAPTCHA',
    vendor: GOOGLE,
    // Google also uses what reCAPTCHA collects for purposes of its own: not exempt from consent.
    purpose: OTHER,
    category: 'security',
    privacyPolicyUrl: GOOGLE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Google reCAPTCHA',
        description:
          'Spam- und Bot-Schutz von Google für Formulare: Um zu prüfen, ob ein Mensch die Seite bedient, sendet reCAPTCHA die IP-Adresse, Angaben zu Browser und Gerät und das Verhalten auf der Seite an Google, das diese Daten auch für eigene Zwecke nutzt (etwa um seine Dienste zu verbessern). Wird erst nach Einwilligung geladen; bis dahin lässt sich ein damit geschütztes Formular womöglich nicht absenden.',
      },
      en_US: {
        name: 'Google reCAPTCHA',
        description:
          "Google's spam and bot protection for forms: to check whether a person is using the page, reCAPTCHA sends the visitor's IP address, browser and device details and how they use the page to Google, which also uses this data for purposes of its own (such as improving its services). It loads only after consent; until then a form it protects may not be sent.",
      },
    },
    cookies: [
      cookie(
        '_GRECAPTCHA',
        '6 months',
        'Holds the risk analysis reCAPTCHA needs to tell people from bots.',
        'Enthält die Risikobewertung, mit der reCAPTCHA Menschen von Bots unterscheidet.',
      ),
      entry(
        'rc::a',
        'localStorage',
        'persistent',
        'reCAPTCHA entry used to recognise bots over time.',
        'reCAPTCHA-Eintrag, mit dem Bots über längere Zeit erkannt werden.',
      ),
      entry(
        'rc::c',
        'sessionStorage',
        'session',
        'reCAPTCHA entry for the current tab that helps detect bots.',
        'reCAPTCHA-Eintrag für den aktuellen Tab, der beim Erkennen von Bots hilft.',
      ),
    ],
    signals: {
      scripts: ['www.google.com/recaptcha', 'www.gstatic.com/recaptcha', 'www.recaptcha.net/recaptcha'],
      iframes: ['www.google.com/recaptcha', 'www.recaptcha.net/recaptcha'],
    },
  },
  {
    id: 291,
    name: 'hCaptcha',
    vendor: 'Intuition Machines, Inc.',
    // The answers to its puzzles serve the provider's own data-labelling business: not exempt from consent.
    purpose: OTHER,
    category: 'security',
    privacyPolicyUrl: 'https://www.hcaptcha.com/privacy',
    translations: {
      de_DE: {
        name: 'hCaptcha',
        description:
          'Captcha-Dienst von Intuition Machines (USA), der Formulare und Anmeldungen vor automatisierten Zugriffen schützt. Er erhält die IP-Adresse, Angaben zum Browser und das Verhalten auf der Seite; die Antworten auf seine Bildaufgaben verwendet der Anbieter zudem, um Daten für seine Kunden aus dem maschinellen Lernen zu kennzeichnen. Wird erst nach Einwilligung geladen.',
      },
      en_US: {
        name: 'hCaptcha',
        description:
          "Captcha service of Intuition Machines (USA) that protects forms and logins from automated access. It receives the visitor's IP address, browser details and how they use the page; the provider also uses the answers to its picture tasks to label data for its machine-learning customers. It loads only after consent.",
      },
    },
    cookies: [],
    signals: {
      scripts: ['js.hcaptcha.com/1/api.js', 'hcaptcha.com/1/api.js'],
      iframes: ['newassets.hcaptcha.com/captcha', 'assets.hcaptcha.com/captcha'],
    },
  },
  {
    id: 292,
    name: 'Cloudflare Turnstile',
    vendor: CLOUDFLARE,
    purpose: NECESSARY,
    category: 'security',
    privacyPolicyUrl: CLOUDFLARE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Cloudflare Turnstile',
        description: 'Captcha-Alternative von Cloudflare, die Bots meist ohne Rätsel für den Besucher erkennt.',
      },
      en_US: {
        name: 'Cloudflare Turnstile',
        description: 'Cloudflare’s captcha alternative that usually detects bots without a puzzle for the visitor.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['challenges.cloudflare.com/turnstile'],
      iframes: ['challenges.cloudflare.com'],
    },
  },
  {
    id: 293,
    name: 'Cloudflare bot management',
    vendor: CLOUDFLARE,
    purpose: NECESSARY,
    category: 'security',
    privacyPolicyUrl: CLOUDFLARE_PRIVACY,
    translations: {
      de_DE: {
        name: 'Cloudflare-Bot-Schutz',
        description: 'Cookies, die Cloudflare als vorgeschalteter Dienst für Bot-Abwehr, Challenges und Ratenbegrenzung setzt.',
      },
      en_US: {
        name: 'Cloudflare bot management',
        description: 'Cookies Cloudflare sets in front of a site for bot defence, challenges and rate limiting.',
      },
    },
    cookies: [
      cookie(
        '__cf_bm',
        '30 minutes',
        'Helps Cloudflare tell human visitors from bots.',
        'Hilft Cloudflare, menschliche Besucher von Bots zu unterscheiden.',
      ),
      cookie(
        'cf_clearance',
        '1 year',
        'Proves that the visitor passed a Cloudflare challenge; how long it counts is set by the site.',
        'Belegt, dass der Besucher eine Cloudflare-Prüfung bestanden hat; wie lange sie gilt, legt die Website fest.',
      ),
      cookie(
        '_cfuvid',
        'session',
        'Tells apart visitors sharing one IP address when rate limits apply.',
        'Unterscheidet Besucher mit gemeinsamer IP-Adresse, wenn Ratenbegrenzungen greifen.',
      ),
      cookie(
        '__cfruid',
        'session',
        'Marks trusted traffic for Cloudflare’s rate limiting.',
        'Kennzeichnet vertrauenswürdigen Datenverkehr für die Ratenbegrenzung von Cloudflare.',
      ),
    ],
    signals: {
      scripts: [],
      iframes: [],
    },
  },

  // ── Payment ─────────────────────────────────────────────────────────────────────────────
  {
    id: 300,
    name: 'Stripe',
    vendor: 'Stripe Payments Europe, Limited',
    purpose: NECESSARY,
    category: 'payment',
    privacyPolicyUrl: 'https://stripe.com/privacy',
    translations: {
      de_DE: {
        name: 'Stripe',
        description: 'Zahlungsabwicklung über Stripe, etwa Kartenzahlung im Bezahlformular der Website.',
      },
      en_US: {
        name: 'Stripe',
        description: 'Payment processing through Stripe, such as card payments in the site’s checkout.',
      },
    },
    cookies: [
      cookie(
        '__stripe_mid',
        '1 year',
        'Device ID Stripe uses to prevent payment fraud.',
        'Gerätekennung, mit der Stripe Zahlungsbetrug verhindert.',
      ),
      cookie(
        '__stripe_sid',
        '30 minutes',
        'Session ID Stripe uses to prevent payment fraud.',
        'Sitzungskennung, mit der Stripe Zahlungsbetrug verhindert.',
      ),
      cookie(
        'm',
        '2 years',
        'Device ID on m.stripe.com that Stripe’s fraud detection uses.',
        'Gerätekennung auf m.stripe.com für die Betrugserkennung von Stripe.',
      ),
    ],
    signals: {
      scripts: ['js.stripe.com'],
      iframes: ['js.stripe.com'],
    },
    // Its fraud-detection frame runs on m.stripe.network.
    domains: ['stripe.network'],
  },
  {
    id: 301,
    name: 'PayPal',
    vendor: 'PayPal (Europe) S.à r.l. et Cie, S.C.A.',
    // Recognises the browser for years and serves PayPal's own purposes too: not exempt from consent.
    purpose: OTHER,
    category: 'payment',
    privacyPolicyUrl: 'https://www.paypal.com/webapps/mpp/ua/privacy-full',
    translations: {
      de_DE: {
        name: 'PayPal',
        description:
          'PayPal-Bezahlschaltflächen und Checkout, von PayPal-Servern geladen, oft schon auf Produkt- und Warenkorbseiten. PayPal erhält die IP-Adresse und Angaben zum Browser, erkennt den Browser mit eigenen Cookies über Jahre wieder und nutzt die Daten als eigener Verantwortlicher auch für eigene Zwecke (etwa Betrugsabwehr über viele Shops hinweg und eigenes Marketing). Wird erst nach Einwilligung geladen.',
      },
      en_US: {
        name: 'PayPal',
        description:
          "PayPal payment buttons and checkout, loaded from PayPal's servers, often already on product and basket pages. PayPal receives the visitor's IP address and browser details, recognises the browser with cookies of its own for years and, as a controller in its own right, also uses the data for purposes of its own (such as fraud checks across many shops and its own marketing). It loads only after consent.",
      },
    },
    cookies: [
      cookie(
        'ts_c',
        '3 years',
        'PayPal ID used for fraud prevention and to recognise the browser.',
        'PayPal-Kennung zur Betrugsabwehr und zum Wiedererkennen des Browsers.',
      ),
      cookie(
        'nsid',
        'session',
        'Keeps the PayPal session during the payment.',
        'Hält die PayPal-Sitzung während der Zahlung.',
      ),
      cookie(
        'x-pp-s',
        'session',
        'Technical PayPal session cookie for the payment process.',
        'Technisches Sitzungs-Cookie von PayPal für den Zahlungsablauf.',
      ),
    ],
    signals: {
      scripts: ['www.paypal.com/sdk/js', 'www.paypalobjects.com/api/checkout.js'],
      iframes: ['www.paypal.com/smart/buttons'],
    },
  },
  {
    id: 302,
    name: 'Klarna',
    vendor: 'Klarna Bank AB (publ)',
    // Its script also advertises Klarna in the shop, and Klarna uses the data for its own purposes: not exempt from consent.
    purpose: OTHER,
    category: 'payment',
    privacyPolicyUrl: 'https://www.klarna.com/international/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Klarna',
        description:
          'Zahlarten von Klarna wie Rechnung oder Ratenkauf sowie Werbehinweise für Klarna im Shop, etwa auf Produktseiten. Klarna erhält die IP-Adresse und Angaben zum Browser und nutzt die Daten als eigener Verantwortlicher auch für eigene Zwecke (etwa eigenes Marketing). Wird erst nach Einwilligung geladen.',
      },
      en_US: {
        name: 'Klarna',
        description:
          "Klarna payment methods such as pay later or instalments, and Klarna's promotional messages in the shop, such as on product pages. Klarna receives the visitor's IP address and browser details and, as a controller in its own right, also uses the data for purposes of its own (such as its own marketing). It loads only after consent.",
      },
    },
    cookies: [],
    signals: {
      scripts: ['js.klarna.com/web-sdk', 'x.klarnacdn.net/kp/lib', 'eu-library.klarnaservices.com/lib.js'],
      iframes: [],
    },
  },

  // ── Consent managers ────────────────────────────────────────────────────────────────────
  {
    id: 310,
    name: 'Cookiebot',
    vendor: 'Usercentrics A/S',
    purpose: NECESSARY,
    category: 'consent',
    privacyPolicyUrl: 'https://www.cookiebot.com/en/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Cookiebot',
        description: 'Consent-Banner von Cookiebot, das die Cookie-Einwilligung der Besucher einholt und speichert.',
      },
      en_US: {
        name: 'Cookiebot',
        description: 'Cookiebot consent banner that asks for and stores the visitor’s cookie choices.',
      },
    },
    cookies: [
      cookie(
        'CookieConsent',
        '1 year',
        'Stores the visitor’s consent choices for this site.',
        'Speichert die Einwilligungsentscheidung des Besuchers für diese Website.',
      ),
    ],
    signals: {
      scripts: ['consent.cookiebot.com', 'consentcdn.cookiebot.com', 'consent.cookiebot.eu'],
      iframes: [],
    },
  },
  {
    id: 311,
    name: 'OneTrust',
    vendor: 'OneTrust LLC',
    purpose: NECESSARY,
    category: 'consent',
    privacyPolicyUrl: 'https://www.onetrust.com/privacy-notice/',
    translations: {
      de_DE: {
        name: 'OneTrust',
        description: 'Cookie-Banner und Einwilligungsverwaltung von OneTrust (auch als CookiePro).',
      },
      en_US: {
        name: 'OneTrust',
        description: 'OneTrust cookie banner and consent management (also sold as CookiePro).',
      },
    },
    cookies: [
      cookie(
        'OptanonConsent',
        '1 year',
        'Stores which cookie categories the visitor allowed.',
        'Speichert, welche Cookie-Kategorien der Besucher erlaubt hat.',
      ),
      cookie(
        'OptanonAlertBoxClosed',
        '1 year',
        'Notes that the visitor has answered the banner, so it is not shown again.',
        'Vermerkt, dass der Besucher das Banner beantwortet hat, damit es nicht erneut erscheint.',
      ),
    ],
    signals: {
      scripts: ['cdn.cookielaw.org', 'optanon.blob.core.windows.net', 'cookie-cdn.cookiepro.com'],
      iframes: [],
    },
  },
  {
    id: 312,
    name: 'Usercentrics',
    vendor: 'Usercentrics GmbH',
    purpose: NECESSARY,
    category: 'consent',
    privacyPolicyUrl: 'https://usercentrics.com/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Usercentrics',
        description: 'Consent-Management-Plattform aus München, die Einwilligungen abfragt und dokumentiert.',
      },
      en_US: {
        name: 'Usercentrics',
        description: 'Consent management platform from Munich that asks for and records consent.',
      },
    },
    cookies: [
      entry(
        'uc_settings',
        'localStorage',
        'persistent',
        'Holds the visitor’s consent per service together with its history.',
        'Enthält die Einwilligungen des Besuchers je Dienst samt Verlauf.',
      ),
      entry(
        'uc_user_interaction',
        'localStorage',
        'persistent',
        'Notes whether the visitor has already interacted with the banner.',
        'Vermerkt, ob der Besucher bereits mit dem Banner interagiert hat.',
      ),
    ],
    signals: {
      scripts: ['app.usercentrics.eu', 'web.cmp.usercentrics.eu', 'privacy-proxy.usercentrics.eu'],
      iframes: [],
    },
  },
  {
    id: 313,
    name: 'Borlabs Cookie',
    vendor: 'Borlabs GmbH',
    purpose: NECESSARY,
    category: 'consent',
    privacyPolicyUrl: 'https://borlabs.io/datenschutz/',
    translations: {
      de_DE: {
        name: 'Borlabs Cookie',
        description: 'WordPress-Plugin für Cookie-Einwilligungen; die Entscheidung bleibt im Browser des Besuchers.',
      },
      en_US: {
        name: 'Borlabs Cookie',
        description: 'WordPress plugin for cookie consent; the choice stays in the visitor’s browser.',
      },
    },
    cookies: [
      cookie(
        'borlabs-cookie',
        '1 year',
        'Stores the visitor’s consent choices; the site can change how long.',
        'Speichert die Einwilligungen des Besuchers; die Dauer kann die Website ändern.',
      ),
    ],
    signals: {
      scripts: [],
      iframes: [],
    },
  },
  {
    id: 314,
    name: 'CCM19',
    vendor: 'Papoo Software & Media GmbH',
    purpose: NECESSARY,
    category: 'consent',
    privacyPolicyUrl: 'https://www.ccm19.de/datenschutzerklaerung.html',
    translations: {
      de_DE: {
        name: 'CCM19',
        description: 'Cookie-Consent-Lösung aus Bonn, als Cloud-Dienst oder selbst gehostet.',
      },
      en_US: {
        name: 'CCM19',
        description: 'Cookie consent tool from Bonn, Germany, available as a cloud service or self-hosted.',
      },
    },
    cookies: [
      cookie(
        'ccm_consent',
        '1 year',
        'Stores the visitor’s consent choices; one year unless the site sets otherwise.',
        'Speichert die Einwilligungen des Besuchers; ein Jahr, sofern die Website nichts anderes festlegt.',
      ),
    ],
    signals: {
      scripts: ['cloud.ccm19.de'],
      iframes: [],
    },
  },

  // ── Forms and booking ───────────────────────────────────────────────────────────────────
  {
    id: 330,
    name: 'Calendly',
    vendor: 'Calendly LLC',
    purpose: OTHER,
    category: 'forms-and-booking',
    privacyPolicyUrl: 'https://calendly.com/privacy',
    translations: {
      de_DE: {
        name: 'Calendly',
        description: 'Eingebetteter Terminkalender von Calendly, über den Besucher Termine buchen.',
      },
      en_US: {
        name: 'Calendly',
        description: 'Embedded Calendly scheduling page where visitors book appointments.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['assets.calendly.com/assets/external/widget.js'],
      iframes: ['calendly.com'],
    },
  },
  {
    id: 331,
    name: 'Typeform',
    vendor: 'Typeform S.L.',
    purpose: OTHER,
    category: 'forms-and-booking',
    privacyPolicyUrl: 'https://www.typeform.com/privacy-policy/',
    translations: {
      de_DE: {
        name: 'Typeform',
        description: 'Eingebettete Formulare und Umfragen von Typeform.',
      },
      en_US: {
        name: 'Typeform',
        description: 'Embedded forms and surveys built with Typeform.',
      },
    },
    cookies: [
      cookie(
        'tf_respondent_cc',
        '6 months',
        'Typeform cookie that keeps the respondent’s cookie settings.',
        'Typeform-Cookie, das die Cookie-Einstellungen der antwortenden Person speichert.',
      ),
    ],
    signals: {
      scripts: ['embed.typeform.com'],
      iframes: ['form.typeform.com/to'],
    },
  },

  // ── Reviews and comments ────────────────────────────────────────────────────────────────
  {
    id: 340,
    name: 'Trustpilot',
    vendor: 'Trustpilot A/S',
    purpose: OTHER,
    category: 'other',
    privacyPolicyUrl: 'https://legal.trustpilot.com/for-reviewers/end-user-privacy-terms',
    translations: {
      de_DE: {
        name: 'Trustpilot',
        description: 'Trustpilot-Widgets, die Bewertungen und Sterne eines Unternehmens anzeigen.',
      },
      en_US: {
        name: 'Trustpilot',
        description: 'Trustpilot widgets that show a company’s reviews and star rating.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['widget.trustpilot.com/bootstrap'],
      iframes: ['widget.trustpilot.com/trustboxes'],
    },
  },
  {
    id: 341,
    name: 'Disqus',
    vendor: 'Disqus, Inc.',
    purpose: OTHER,
    category: 'other',
    privacyPolicyUrl: 'https://help.disqus.com/en/articles/1717103-disqus-privacy-policy',
    translations: {
      de_DE: {
        name: 'Disqus',
        description: 'Kommentarbereich von Disqus, der unter Beiträgen eingebettet wird.',
      },
      en_US: {
        name: 'Disqus',
        description: 'Disqus comment section embedded below articles.',
      },
    },
    cookies: [],
    signals: {
      scripts: ['disqus.com', 'c.disquscdn.com'],
      iframes: ['disqus.com/embed/comments'],
    },
  },

  // ── Platform session cookies ────────────────────────────────────────────────────────────
  {
    id: 360,
    name: 'WordPress',
    vendor: 'Website operator (self-hosted WordPress)',
    purpose: NECESSARY,
    category: 'other',
    privacyPolicyUrl: 'https://wordpress.org/about/privacy/',
    translations: {
      de_DE: {
        name: 'WordPress',
        description: 'Cookies, die WordPress selbst für Anmeldung, Kommentare und geschützte Beiträge setzt.',
      },
      en_US: {
        name: 'WordPress',
        description: 'Cookies WordPress itself sets for login, comments and password-protected posts.',
      },
    },
    cookies: [
      cookie(
        'wordpress_logged_in_*',
        'session',
        'Shows that a user is logged in; kept for 14 days with “Remember me”.',
        'Zeigt an, dass ein Nutzer angemeldet ist; mit „Angemeldet bleiben“ 14 Tage lang.',
      ),
      cookie(
        'wordpress_sec_*',
        'session',
        'Login credentials for the admin area over HTTPS; 14 days with “Remember me”.',
        'Anmeldedaten für den Adminbereich über HTTPS; mit „Angemeldet bleiben“ 14 Tage.',
      ),
      cookie(
        'wordpress_test_cookie',
        'session',
        'Checks whether the browser accepts cookies before login.',
        'Prüft vor der Anmeldung, ob der Browser Cookies annimmt.',
      ),
      cookie(
        'wp-settings-*',
        '1 year',
        'Keeps a logged-in user’s layout settings for the admin area.',
        'Speichert Ansichtseinstellungen eines angemeldeten Nutzers im Adminbereich.',
      ),
      cookie(
        'wp-settings-time-*',
        '1 year',
        'Time when the admin settings cookie was last written.',
        'Zeitpunkt, zu dem das Cookie mit den Admin-Einstellungen zuletzt geschrieben wurde.',
      ),
      cookie(
        'comment_author_*',
        '347 days',
        'Remembers name, email and website of a commenter who opted in.',
        'Merkt sich Name, E-Mail und Website eines Kommentierenden, der zugestimmt hat.',
      ),
      cookie(
        'wp-postpass_*',
        '10 days',
        'Remembers that the visitor entered the password of a protected post.',
        'Merkt sich, dass der Besucher das Passwort eines geschützten Beitrags eingegeben hat.',
      ),
    ],
    signals: {
      scripts: [],
      iframes: [],
    },
  },
  {
    id: 361,
    name: 'WooCommerce',
    vendor: 'Website operator (self-hosted WooCommerce)',
    purpose: NECESSARY,
    category: 'other',
    privacyPolicyUrl: 'https://automattic.com/privacy/',
    translations: {
      de_DE: {
        name: 'WooCommerce',
        description: 'Shop-Cookies des WordPress-Plugins WooCommerce für Warenkorb und Sitzung.',
      },
      en_US: {
        name: 'WooCommerce',
        description: 'Shop cookies of the WooCommerce plugin for WordPress, used for the cart and session.',
      },
    },
    cookies: [
      cookie(
        'woocommerce_cart_hash',
        'session',
        'Detects changes to the cart contents.',
        'Erkennt Änderungen am Inhalt des Warenkorbs.',
      ),
      cookie(
        'woocommerce_items_in_cart',
        'session',
        'Notes whether the cart holds any items.',
        'Vermerkt, ob der Warenkorb Artikel enthält.',
      ),
      cookie(
        'wp_woocommerce_session_*',
        '2 days',
        'Links the visitor to their cart and shop session on the server.',
        'Verbindet den Besucher mit seinem Warenkorb und seiner Shop-Sitzung auf dem Server.',
      ),
      cookie(
        'woocommerce_recently_viewed',
        'session',
        'Lists recently viewed products for the matching widget.',
        'Listet zuletzt angesehene Produkte für das passende Widget.',
      ),
      cookie(
        'store_notice*',
        'session',
        'Remembers that the visitor dismissed the shop notice.',
        'Merkt sich, dass der Besucher den Shop-Hinweis geschlossen hat.',
      ),
    ],
    signals: {
      scripts: [],
      iframes: [],
    },
  },
  {
    id: 362,
    name: 'PHP session',
    vendor: 'Website operator (PHP session handling)',
    purpose: NECESSARY,
    category: 'other',
    privacyPolicyUrl: 'https://www.php.net/privacy.php',
    translations: {
      de_DE: {
        name: 'PHP-Sitzung',
        description: 'Sitzungs-Cookie von Websites, die in PHP geschrieben sind, etwa für Anmeldung oder Warenkorb.',
      },
      en_US: {
        name: 'PHP session',
        description: 'Session cookie of websites written in PHP, used for example for logins or carts.',
      },
    },
    cookies: [
      cookie(
        'PHPSESSID',
        'session',
        'Links the browser to its session data on the server.',
        'Verbindet den Browser mit seinen Sitzungsdaten auf dem Server.',
      ),
    ],
    signals: {
      scripts: [],
      iframes: [],
    },
  },
  {
    id: 363,
    name: 'Shopify',
    vendor: 'Shopify International Limited',
    purpose: NECESSARY,
    category: 'other',
    privacyPolicyUrl: 'https://www.shopify.com/legal/privacy',
    translations: {
      de_DE: {
        name: 'Shopify',
        description: 'Notwendige Cookies von Shopify-Shops für Warenkorb, Kundenkonto und Einwilligung.',
      },
      en_US: {
        name: 'Shopify',
        description: 'Essential cookies of Shopify stores for the cart, customer account and consent.',
      },
    },
    cookies: [
      cookie(
        '_shopify_essential',
        '1 year',
        'Holds essential store data such as the session and cart reference.',
        'Enthält wesentliche Shop-Daten wie Sitzung und Verweis auf den Warenkorb.',
      ),
      cookie('cart', '2 weeks', 'Identifies the visitor’s cart.', 'Kennzeichnet den Warenkorb des Besuchers.'),
      cookie(
        'cart_sig',
        '2 weeks',
        'Signature that checks the cart has not been tampered with.',
        'Signatur, die prüft, ob der Warenkorb unverändert ist.',
      ),
      cookie(
        'cart_currency',
        '2 weeks',
        'Currency chosen for the cart.',
        'Für den Warenkorb gewählte Währung.',
      ),
      cookie(
        'localization',
        '2 weeks',
        'Keeps the chosen country and language of the store.',
        'Speichert das gewählte Land und die Sprache des Shops.',
      ),
      cookie(
        'secure_customer_sig',
        '1 year',
        'Keeps a customer logged in to their store account.',
        'Hält einen Kunden in seinem Shop-Konto angemeldet.',
      ),
      cookie(
        '_tracking_consent',
        '1 year',
        'Stores the visitor’s consent choices for the store.',
        'Speichert die Einwilligungen des Besuchers für den Shop.',
      ),
    ],
    signals: {
      scripts: ['cdn.shopify.com'],
      iframes: [],
    },
  },
];
