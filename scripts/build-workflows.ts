// `npm run build`: bundles the workflow code into .build/ (service/workflow-bundle.ts), so the
// worker's first start does not run webpack either.
import { BUNDLE_DIR, prebuiltWorkflowBundle } from '../service/workflow-bundle';

prebuiltWorkflowBundle()
  .then((bundle) => {
    console.log(
      bundle && 'codePath' in bundle ? bundle.codePath : `built in memory (${BUNDLE_DIR} not writable)`,
    );
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
