import { exitOnStartFailure, startService } from './app/service.ts';
startService().catch(exitOnStartFailure);
