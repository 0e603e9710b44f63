# -*- encoding: utf-8 -*-
# stub: ruby2_keywords 0.0.5 ruby lib

Gem::Specification.new do |s|
  s.name = "ruby2_keywords".freeze
  s.version = "0.0.5"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.require_paths = ["lib".freeze]
  s.authors = ["Nobuyoshi Nakada".freeze]
  s.date = "2026-11-21"
  s.extra_rdoc_files = ["LICENSE".freeze, "README.md".freeze, "ChangeLog".freeze]
  s.files = ["ChangeLog".freeze, "LICENSE".freeze, "README.md".freeze, "ruby2_keywords.rb".freeze]
  s.homepage = "https://github.com/ruby/ruby2_keywords".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.rdoc_options = ["--main".freeze, "README.md".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.0.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Shim library for Module#ruby2_keywords".freeze
end
