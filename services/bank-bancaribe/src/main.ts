import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('bank-bancaribe', loadTracingConfig()); // first line: modules are instrumented as they load
import { runConnectorProcess } from '@switch/platform/runtime/bank-process';
import { BancaribeProcessSettings, loadBancaribeConfig } from './config';
import { bancaribeService } from './service';

/** Bancaribe's connector as its own process: `node services/bank-bancaribe/dist/src/main.js`. */
runConnectorProcess(bancaribeService, BancaribeProcessSettings, () => loadBancaribeConfig());
