// The part of autocannon's API the load worker uses (the package ships no type declarations).
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }

  export interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    /** Bytes received per second; `total` is every byte of the run. */
    throughput: Histogram & { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}

// The queue that collects each answer while it arrives (the load worker replaces its addBody).
declare module 'autocannon/lib/pipelinedRequestsQueue.js' {
  const PipelinedRequestsQueue: { prototype: { addBody(data: Buffer): void } };
  export = PipelinedRequestsQueue;
}
