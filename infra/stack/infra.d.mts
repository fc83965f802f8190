/** Types of infra.mjs (a stack's own infrastructure instance), as far as the tests use it. */
export type Database = 'mongo' | 'ferretdb';
export interface InfraPorts {
  kafka: number;
  controller: number;
  registry: number;
  mongo: number;
  postgres?: number;
}
export declare const REPO: string;
export declare const DEFAULT_INFRA_PORTS: InfraPorts;
export declare function infraNames(database: Database): string[];
export declare function scriptEnv(stateDir: string, ports: InfraPorts, database: Database): Record<string, string | undefined>;
