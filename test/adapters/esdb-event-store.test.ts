import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import { esdbServerModel } from '../support/esdb-server-model';
import { describeWithServer } from '../support/external-servers';
import { eventStoreContract } from './event-store.contract';

eventStoreContract('EventStoreDB model', async () => {
  const server = esdbServerModel();
  const store = openEsdbEventStore('esdb://model', () => server.connect());
  return { store, cleanup: () => store.close() };
});

describeWithServer('esdb', 'EventStoreDB adapter', (address) => {
  eventStoreContract('EventStoreDB', async () => {
    const store = openEsdbEventStore(address());
    return { store, cleanup: () => store.close() };
  });
});
