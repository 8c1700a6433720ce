// The hosts' own errors, told apart by class (the CLI's exit codes, the server's status codes).

/** An Error whose `name` is its class's name ("QueueFullError"), so a message printed or logged says which it is. */
export class NamedError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
