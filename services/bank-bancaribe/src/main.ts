import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-bancaribe', loadTracingConfig()); // first line: modules are instrumented as they load
import { runConnectorProcess } from '@switch/shared';
import { BancaribeProcessSettings, loadBancaribeConfig } from './config';
import { bancaribeService } from './service';

/** Bancaribe's connector as its own process: `node services/bank-bancaribe/dist/src/main.js`. */
runConnectorProcess(bancaribeService, BancaribeProcessSettings, () => loadBancaribeConfig());
