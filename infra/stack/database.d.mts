/** Types of database.mjs (the stack's choice of database, also used by its unit test). */
export type Engine = 'mongo' | 'ferretdb';
export interface DatabaseChoice {
  engine: Engine;
  why: string;
}
export declare const DATABASE_OVERRIDE: string;
export declare function chooseDatabase(input: { override: string | undefined; dockerReachable: boolean | undefined }): DatabaseChoice;
export declare function needsDockerProbe(override: string | undefined): boolean;
export declare function describeDatabase(choice: DatabaseChoice, image: string): string;
