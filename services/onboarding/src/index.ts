export { run, toRequest, resolveConnection, UsageError } from './cli';
