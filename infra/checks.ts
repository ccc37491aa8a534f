import { type App, type CfnElement, Stack, Validations } from 'aws-cdk-lib';
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

/** How cdk-nag names a resource's ARN inside a finding id: `<LogicalId.Arn>`. */
export function arnInFinding(resource: IConstruct): string {
  const element = resource.node.defaultChild as CfnElement;
  return `<${Stack.of(resource).resolve(element.logicalId)}.Arn>`;
}
