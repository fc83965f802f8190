export { run, toRequest, resolveConnection, OnboardingSettings, UsageError } from './cli';
