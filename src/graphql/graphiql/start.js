// Starts GraphiQL on the page served by page.ts. Kept in a file of its own so the page needs no
// inline script (the content security policy allows scripts from this service only).
/* global React, ReactDOM, GraphiQL */
const options = JSON.parse(document.getElementById('graphiql-options').textContent);
const fetcher = GraphiQL.createFetcher({ url: options.endpoint, headers: { [options.csrfHeader]: '1' } });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: options.defaultQuery,
    defaultHeaders: options.defaultHeaders,
    shouldPersistHeaders: true,
    defaultEditorToolsVisibility: 'headers',
  }),
);
