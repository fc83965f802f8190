/** Types of mongo-container.mjs (the MongoDB container of the tests and of `npm run stack`). */
export declare const MONGODB_IMAGE: string;
export declare function dockerAvailable(timeoutMs?: number): Promise<boolean>;
export declare function startMongoContainer(): Promise<{ url: string; id: string; stop(): Promise<void> }>;
