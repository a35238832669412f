# Targets for SAM's makefile builder: `sam build` calls build-<LogicalId> with ARTIFACTS_DIR set
# (template.yaml: Metadata.BuildMethod makefile). They build the function's shaded jar with Maven
# and unpack it where SAM packages the function from.

build-IngesterFunction:
	bash scripts/build.sh lambda-ingester "$(ARTIFACTS_DIR)"

build-QueryFunction:
	bash scripts/build.sh lambda-query "$(ARTIFACTS_DIR)"

# The backfill function is the ingester's jar with its second handler (datalake.ingester.BackfillHandler).
build-BackfillFunction:
	bash scripts/build.sh lambda-ingester "$(ARTIFACTS_DIR)"

.PHONY: build-IngesterFunction build-QueryFunction build-BackfillFunction
