import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('bank-plaza', loadTracingConfig()); // first line: modules are instrumented as they load
import { runConnectorProcess } from '@switch/platform/runtime/bank-process';
import { PlazaProcessSettings, loadPlazaConfig } from './config';
import { plazaService } from './service';

/** Banco Plaza's connector as its own process: `node services/bank-plaza/dist/src/main.js`. */
runConnectorProcess(plazaService, PlazaProcessSettings, () => loadPlazaConfig());
