/** Types of codegen.mjs (the generation script's functions, also used by the drift test). */
export declare const GENERATION_HOST: string;
export declare function generateTypes(document: unknown): Promise<string>;
export declare function documentText(document: unknown): string;
