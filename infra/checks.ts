import { type App, type CfnElement, Names, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag's AwsSolutions and Serverless packs as CDK policy-validation plugins (cdk-nag 3): every synth of
 * the app, `npm run synth` and the template tests alike, checks the templates, and a finding fails it unless
 * it is acknowledged beside the construct it concerns (Validations.of(…).acknowledge) with its reason.
 */
export function addChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
}

/** A cdk-nag finding accepted on `scope` (and what it contains), with the reason beside it. */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * How cdk-nag names a resource's ARN inside a finding id on a policy of `user`'s stack: `<LogicalId.Arn>`
 * in the resource's own stack; in a nested stack, the parameter that CDK passes the ARN in, which it
 * names `reference-to-<the resource's unique id>Arn` (aws-cdk-lib core/lib/private/refs.ts). Were that
 * naming to change, the finding would no longer be acknowledged and the synth would fail, not pass.
 */
export function arnInFinding(resource: IConstruct, user: IConstruct = resource): string {
  const element = resource.node.defaultChild as CfnElement;
  const stack = Stack.of(resource);
  if (Stack.of(user) === stack) return `<${stack.resolve(element.logicalId)}.Arn>`;
  return `<${`reference-to-${Names.nodeUniqueId(element.node)}Arn`.replace(/[^A-Za-z0-9]/g, '')}>`;
}
