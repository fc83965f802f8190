/** MongoDB adapter of the Store port. Being written. */
export class MongoStore {
  constructor(readonly options: { url: string; database: string }) {}
}
