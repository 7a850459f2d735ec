// Starts GraphiQL on the page served by page.ts. Kept in a file of its own so the page needs no
// inline script (the content security policy allows scripts from this service only).
//
// Above the editor sits a bar for the API key. Until a key is given, the page says that one is
// needed and where it comes from, and GraphiQL asks for no schema (so it shows no "Error fetching
// schema"). A key typed there is checked at once; an accepted key is kept in sessionStorage (for
// this tab until it closes — never localStorage, never the address), goes as
// `Authorization: Bearer …` with every request, and GraphiQL fetches the schema with it.
// Headers typed into GraphiQL's Headers tab are sent as well; an Authorization header there
// replaces the bar's key for that tab's operations.
/* global React, ReactDOM, GraphiQL */
const options = JSON.parse(document.getElementById('graphiql-options').textContent);
const h = React.createElement;
const { useCallback, useEffect, useMemo, useState } = React;

const STORAGE_KEY = 'consent-config:graphiql:api-key';
const storage = window.sessionStorage;
const storedKey = () => storage.getItem(STORAGE_KEY) ?? '';

const jsonHeaders = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json, application/json',
  [options.csrfHeader]: '1',
};

/** An Authorization header typed into the Headers tab, unless it is empty or still a placeholder. */
const typedAuthorization = (name, value) =>
  /^authorization$/i.test(name) && typeof value === 'string' && value.trim() !== '' && !/<[^>]*>/.test(value);

/**
 * The request headers: the bar's key, then what GraphiQL sends (its defaults and the Headers
 * tab) on top, compared without regard to case. Says whether the bar's key went out.
 */
function requestHeaders(key, given) {
  const headers = new window.Headers();
  if (key) headers.set('authorization', `Bearer ${key}`);
  let ownAuthorization = false;
  for (const [name, value] of Object.entries(given ?? {})) {
    if (/^authorization$/i.test(name)) {
      if (!typedAuthorization(name, value)) continue;
      ownAuthorization = true;
    }
    headers.set(name, String(value));
  }
  return { headers, sentKey: Boolean(key) && !ownAuthorization };
}

/** GraphiQL's fetcher with the key; tells `onRefused` when the service refuses the bar's key. */
function keyedFetcher(key, onRefused) {
  const fetch = async (url, init) => {
    const { headers, sentKey } = requestHeaders(key, init?.headers);
    const response = await window.fetch(url, { ...init, headers });
    if (response.status === 401 && sentKey) onRefused(key);
    return response;
  };
  return GraphiQL.createFetcher({ url: options.endpoint, headers: { [options.csrfHeader]: '1' }, fetch });
}

/** Asks the service whether it takes a key: 'accepted', 'refused', or a reason it could not tell. */
async function checkKey(key) {
  let response;
  try {
    response = await window.fetch(options.endpoint, {
      method: 'POST',
      headers: { ...jsonHeaders, authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: 'query KeyCheck { __typename }', operationName: 'KeyCheck' }),
    });
  } catch (error) {
    return { outcome: 'failed', detail: `the service could not be reached (${error.message})` };
  }
  // Read to the end, so the request does not stay open.
  const body = await response.json().catch(() => null);
  if (response.ok && body?.data?.__typename) return { outcome: 'accepted' };
  if (response.status === 401) return { outcome: 'refused' };
  if (response.status === 429) {
    const seconds = response.headers.get('retry-after');
    return { outcome: 'failed', detail: `too many attempts (429)${seconds ? `; try again in ${seconds} s` : ''}` };
  }
  const reason = body?.errors?.[0]?.message ?? body?.detail;
  return { outcome: 'failed', detail: `the service answered ${response.status}${reason ? `: ${reason}` : ''}` };
}

const WHERE_KEYS_COME_FROM = [
  'Use the administrator key (ADMIN_API_KEY, or the key the service printed on its terminal at the first start) or a client key from ',
  h('code', { key: 'path' }, 'POST /hosting/api/client/{id}/apikey'),
  '.',
];

function message(state) {
  switch (state.status) {
    case 'missing':
      return [h('strong', { key: 'lead' }, 'An API key is needed to use this API. '), ...WHERE_KEYS_COME_FROM];
    case 'checking':
      return 'Checking the key…';
    case 'accepted':
      return 'Key accepted: it goes with every request from this tab (as Authorization: Bearer …) until the tab is closed.';
    case 'refused':
      return [h('strong', { key: 'lead' }, 'The key was refused (401). '), ...WHERE_KEYS_COME_FROM];
    default:
      return [h('strong', { key: 'lead' }, 'The key could not be checked: '), `${state.detail.replace(/\.$/, '')}.`];
  }
}

function KeyBar({ state, onSubmit, onForget }) {
  const [draft, setDraft] = useState('');
  const submit = (event) => {
    event.preventDefault();
    const key = draft.trim();
    if (!key) return;
    setDraft('');
    onSubmit(key);
  };
  return h(
    'form',
    { className: `key-bar key-bar-${state.status}`, onSubmit: submit, autoComplete: 'off', 'aria-label': 'API key' },
    h('label', { htmlFor: 'api-key', className: 'key-bar-label' }, 'API key'),
    h('input', {
      id: 'api-key',
      type: 'password',
      value: draft,
      onChange: (event) => setDraft(event.target.value),
      placeholder: state.status === 'accepted' ? 'paste another key to switch' : 'paste your key (dcs_…)',
      spellCheck: false,
      autoComplete: 'off',
      autoFocus: state.status !== 'accepted',
    }),
    h('button', { type: 'submit', className: 'key-bar-use', disabled: state.status === 'checking' }, 'Use key'),
    state.status === 'accepted' ? h('button', { type: 'button', className: 'key-bar-forget', onClick: onForget }, 'Forget key') : null,
    h('p', { className: 'key-bar-message', role: 'status', 'aria-live': 'polite' }, message(state)),
  );
}

function App() {
  const [state, setState] = useState(() => ({ status: storedKey() ? 'checking' : 'missing', key: '', attempt: 0 }));

  const refused = useCallback((key) => {
    if (storedKey() === key) storage.removeItem(STORAGE_KEY);
    setState((current) => (current.key === key || current.status === 'checking' ? { status: 'refused', key: '', attempt: current.attempt } : current));
  }, []);

  const use = useCallback(async (key) => {
    setState((current) => ({ ...current, status: 'checking' }));
    const { outcome, detail } = await checkKey(key);
    if (outcome === 'refused') return refused(key);
    if (outcome === 'accepted') {
      storage.setItem(STORAGE_KEY, key);
      // A new attempt makes a new fetcher, so GraphiQL fetches the schema again even for the same key.
      setState((current) => ({ status: 'accepted', key, attempt: current.attempt + 1 }));
    } else {
      setState((current) => ({ ...current, status: 'failed', detail }));
    }
  }, [refused]);

  const forget = useCallback(() => {
    storage.removeItem(STORAGE_KEY);
    setState((current) => ({ status: 'missing', key: '', attempt: current.attempt }));
  }, []);

  // A key kept from earlier in this tab's session is checked again on load.
  useEffect(() => {
    const key = storedKey();
    if (key) use(key);
  }, [use]);

  const fetcher = useMemo(() => keyedFetcher(state.key, refused), [state.key, state.attempt, refused]);

  return h(
    React.Fragment,
    null,
    h(KeyBar, { state, onSubmit: use, onForget: forget }),
    h(
      'div',
      { className: 'graphiql-host' },
      h(GraphiQL, {
        fetcher,
        // null: no schema and no introspection until the service has taken a key;
        // undefined: GraphiQL fetches it with the fetcher (and its re-fetch button works).
        schema: state.key ? undefined : null,
        defaultQuery: options.defaultQuery,
        // The Headers tab may hold keys: it is not written to localStorage.
        shouldPersistHeaders: false,
        defaultEditorToolsVisibility: 'variables',
      }),
    ),
  );
}

ReactDOM.createRoot(document.getElementById('graphiql')).render(h(App));
