"""Terraform and other HCL files are read by their blocks (parser ``terraform/1``, tree-sitter's HCL
grammar): each top-level block one excerpt titled by its header, its meta naming the address
Terraform gives it. terraform-aws-vpc, walked, read by runs of lines: "which file defines the
aws_nat_gateway resources" found ``outputs.tf (part 8)`` and no ``main.tf``."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.ingest.parsers import load_relations, parser_for

MAIN_TF = """\
locals {
  nat_gateway_count = var.single_nat_gateway ? 1 : length(var.azs)
}

# One NAT gateway per availability zone, unless single_nat_gateway
resource "aws_nat_gateway" "this" {
  count         = local.nat_gateway_count
  allocation_id = aws_eip.nat[count.index].id
}

resource "aws_eip" "nat" {
  count  = local.nat_gateway_count
  domain = "vpc"
}

data "aws_iam_policy_document" "flow_log_cloudwatch_assume_role" {
  statement {
    actions = ["sts:AssumeRole"]
  }
}

module "endpoints" {
  source = "./modules/vpc-endpoints"
}

provider "aws" {
  region = "eu-west-1"
}
"""
VARIABLES_TF = """\
variable "single_nat_gateway" {
  description = "Should be true to provision a single shared NAT Gateway across all of your private networks"
  type        = bool
  default     = false
}

output "nat_public_ips" {
  description = "List of public Elastic IPs created for AWS NAT Gateway"
  value       = aws_eip.nat[*].public_ip
}
"""


def _chunks(text: str, path: str) -> list:
    chunks, relations = load_relations(parser_for(path))(text, path)
    assert relations is None  # no graph yet
    return chunks


def test_each_block_is_an_excerpt_titled_by_its_header_with_its_address():
    found = {c.title: c for c in _chunks(MAIN_TF, "main.tf")}
    assert list(found) == [
        "locals",
        'resource "aws_nat_gateway" "this"',
        'resource "aws_eip" "nat"',
        'data "aws_iam_policy_document" "flow_log_cloudwatch_assume_role"',
        'module "endpoints"',
        'provider "aws"',
    ]
    nat = found['resource "aws_nat_gateway" "this"']
    assert nat.meta == {"language": "terraform", "symbol": "aws_nat_gateway.this", "kind": "resource"}
    assert (nat.line_start, nat.line_end, nat.anchor) == (5, 9, ":5-9")  # its comment above included
    assert nat.body.startswith("# One NAT gateway per availability zone")
    assert "nat gateway" in nat.keywords  # its type's words, searched as the question writes them
    assert found['data "aws_iam_policy_document" "flow_log_cloudwatch_assume_role"'].meta["symbol"] == (
        "data.aws_iam_policy_document.flow_log_cloudwatch_assume_role"
    )
    assert found['module "endpoints"'].meta["symbol"] == "module.endpoints"
    variables = {c.meta["symbol"]: c.title for c in _chunks(VARIABLES_TF, "variables.tf")}
    assert variables == {
        "var.single_nat_gateway": 'variable "single_nat_gateway"',
        "output.nat_public_ips": 'output "nat_public_ips"',
    }


def test_the_lines_outside_blocks_are_read_and_a_long_block_is_cut_in_parts():
    tfvars = 'region = "eu-west-1"\nazs    = ["eu-west-1a", "eu-west-1b"]\n'
    (values,) = _chunks(tfvars, "env/prod.tfvars")
    assert (values.line_start, values.line_end, values.meta) == (1, 2, {"language": "terraform"})
    long = "locals {\n" + "\n\n".join(f'  name_{i} = "{"x" * 80}"' for i in range(80)) + "\n}\n"
    parts = _chunks(long, "locals.tf")
    assert len(parts) > 1 and [c.title for c in parts[:2]] == ["locals", "locals (part 2)"]
    covered = {n for c in parts for n in range(c.line_start, c.line_end + 1)}
    assert all(n + 1 in covered for n, line in enumerate(long.split("\n")) if line.strip())


def test_a_file_the_grammar_cannot_read_is_read_by_its_lines():
    (chunk,) = _chunks('resource "aws_vpc" "this" {\n  cidr_block = \n', "broken.tf")
    assert chunk.type == "code" and chunk.meta == {"language": "terraform"} and "cidr_block" in chunk.body
    assert parser_for("main.tf") == parser_for("x.tfvars") == parser_for("terragrunt.hcl") == "terraform/1"
    assert _chunks('job "web" {\n  count = 1\n}\n', "web.hcl")[0].meta["language"] == "hcl"


def test_the_resource_asked_for_is_found_by_its_block(make_project):
    project = make_project(
        {
            "main.tf": MAIN_TF,
            "variables.tf": VARIABLES_TF,
            "README.md": "# VPC module\n\nCreates a VPC with NAT gateways.\n\n## Usage\n\nSet the variables.\n",
            # outputs that repeat the resource's name, as a module's do
            "outputs.tf": "".join(
                f'output "nat_{i}" {{\n  description = "NAT gateway {i}"\n'
                f"  value = aws_nat_gateway.this[{i}].id\n}}\n\n"
                for i in range(12)
            ),
        },
        name="tfblocks",
    )
    resync(project)
    answer = search_project(project, "which file defines the aws_nat_gateway resource", SearchOptions(limit=3), now=NOW)
    assert answer.excerpts[0].fact.title == 'resource "aws_nat_gateway" "this"'
    assert answer.excerpts[0].fact.source.uri == "main.tf:5-9"
