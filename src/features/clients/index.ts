import type { Feature } from '../feature.ts';
import { ClientEntity } from './client.entity.ts';
import './client.graphql.ts';
import { CLIENTS_TAG, clientRoutes } from './client.routes.ts';

export const clientsFeature: Feature = {
  name: 'clients',
  entities: [ClientEntity],
  routes: clientRoutes,
  tags: [CLIENTS_TAG],
  parameters: {
    clientId: "The client's id.",
    searchTerm: "A client's exact username, or its e-mail address in any case (a client key finds only its own client).",
  },
};
