import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import { describeWithServer } from '../support/external-servers';
import { eventStoreContract } from './event-store.contract';

describeWithServer('esdb', 'EventStoreDB adapter', (address) => {
  eventStoreContract('EventStoreDB', async () => {
    const store = openEsdbEventStore(address());
    return { store, cleanup: () => store.close() };
  });
});
