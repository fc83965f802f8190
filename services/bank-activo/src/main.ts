import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('bank-activo', loadTracingConfig()); // first line: modules are instrumented as they load
import { runConnectorProcess } from '@switch/platform/runtime/bank-process';
import { ActivoProcessSettings, loadActivoConfig } from './config';
import { activoService } from './service';

/** Banco Activo's connector as its own process: `node services/bank-activo/dist/src/main.js`. */
runConnectorProcess(activoService, ActivoProcessSettings, () => loadActivoConfig());
