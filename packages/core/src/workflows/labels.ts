import type { WorkflowNode } from './graph.js';
import { workflowMessages as m } from './messages.js';

/** What a node does, in a few words (run history, dry run, canvas). */
export function nodeLabel(node: WorkflowNode): string {
  switch (node.type) {
    case 'trigger':
      return m.triggers[node.trigger.kind];
    case 'condition':
      return m.nodeKinds.condition;
    case 'action':
      return m.actions[node.action.kind];
    case 'wait':
      return m.waits[node.wait.mode];
  }
}
