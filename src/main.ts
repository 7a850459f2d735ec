import { exitOnStartFailure, startService } from './service.ts';
startService().catch(exitOnStartFailure);
