import { createInProcessJobQueue } from '../../src/workers/in-process-job-queue';
import { jobQueueContract, QUICK_RETRIES } from './job-queue.contract';

jobQueueContract('in-process', async () => createInProcessJobQueue(QUICK_RETRIES));
