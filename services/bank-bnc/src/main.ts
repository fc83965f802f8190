import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('bank-bnc', loadTracingConfig()); // first line: modules are instrumented as they load
import { runConnectorProcess } from '@switch/platform/runtime/bank-process';
import { BncProcessSettings, loadBncConfig } from './config';
import { bncService } from './service';

/** BNC (live)'s connector as its own process: `node services/bank-bnc/dist/src/main.js`. */
runConnectorProcess(bncService, BncProcessSettings, () => loadBncConfig());
