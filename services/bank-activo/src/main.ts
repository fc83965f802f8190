import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-activo', loadTracingConfig()); // first line: modules are instrumented as they load
import { runConnectorProcess } from '@switch/shared';
import { ActivoProcessSettings, loadActivoConfig } from './config';
import { activoService } from './service';

/** Banco Activo's connector as its own process: `node services/bank-activo/dist/src/main.js`. */
runConnectorProcess(activoService, ActivoProcessSettings, () => loadActivoConfig());
